"""The first minutes (issue 18): ``GET /`` is a home page, and ``/docs`` and ``/redoc`` work
with no internet: every script and stylesheet they load is served by Herald itself."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.config import Settings
from api.bootstrap import Herald


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    db = tmp_path_factory.mktemp("docs") / "herald.db"
    herald = Herald(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(db)})
    with TestClient(create_app(herald, Settings())) as test_client:
        yield test_client
    herald.close()


def test_home_page_links_the_viewer_and_the_docs(client):
    response = client.get("/")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    for link in ('href="/docs"', 'href="/redoc"', 'href="/openapi.json"', 'href="/viewer/record"'):
        assert link in response.text


@pytest.mark.parametrize("page", ["/docs", "/redoc"])
def test_docs_load_nothing_from_another_host(client, page):
    html = client.get(page).text
    urls = re.findall(r"""(?:src|href)=["']([^"']+)["']|url:\s*['"]([^'"]+)['"]""", html)
    loaded = [a or b for a, b in urls]
    assert loaded, "the page names the files it loads"
    assert not [u for u in loaded if "//" in u], "a CDN would leave the page blank offline"
    assert "fonts.googleapis" not in html
    for url in loaded:
        assert client.get(url).status_code == 200, url
