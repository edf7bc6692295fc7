"""The replay viewer's static files (HTML, CSS, ES modules), served by api.viewer_routes.
A package only so that a wheel carries them as package data."""
