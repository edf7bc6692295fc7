"""One renderer module per rule system (ES modules); a package only for package data."""
