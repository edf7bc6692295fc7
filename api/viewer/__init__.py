"""The replay viewer's static files (HTML, CSS, ES modules), served by api.routes.viewer.
A package only so that a wheel carries them as package data."""
