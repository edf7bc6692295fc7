"""Print the OpenAPI document the app serves (committed as openapi/openapi.json)."""

from __future__ import annotations

import json
import sys


def document() -> str:
    from api.app import create_app

    return json.dumps(create_app().openapi(), indent=2, sort_keys=True) + "\n"


if __name__ == "__main__":
    sys.stdout.write(document())
