"""Before a command starts anything: is the database there, and is the port free? Each
problem is one line saying what is wrong and what to do (``herald serve``, ``herald
cluster`` and the CLI's commands print it and exit), never a pool's traceback repeated by
every worker ("couldn't get a connection after 2.00 sec")."""

from __future__ import annotations

import errno
import socket
from typing import Any

CONNECT_TIMEOUT_S = 5.0


def postgres_settings(env: dict[str, str]) -> dict[str, str]:
    """Host, port, user, password and database name as Herald will use them."""
    from api.store import store_env

    settings = store_env({**env, "PERSISTENCE_MODULE": "eventsourcing.postgres"})
    return {k: settings[f"POSTGRES_{k.upper()}"] for k in ("host", "port", "user", "password", "dbname")}


def createdb_command(s: dict[str, str]) -> str:
    return f"createdb -h {s['host']} -p {s['port']} -U {s['user']} {s['dbname']}"


def connection_problem(error: Exception, s: dict[str, str], *, dbname: str | None = None) -> str:
    """What a failed connection to PostgreSQL means, in one line, with what to do."""
    text = str(error)
    where = f"{s['host']}:{s['port']}"
    name = dbname or s["dbname"]
    state = getattr(error, "sqlstate", None)
    if state == "3D000" or f'database "{name}" does not exist' in text:
        return (f'the PostgreSQL database "{name}" does not exist on {where}: create it '
                f"(`{createdb_command({**s, 'dbname': name})}`), or start `herald cluster`, which creates it")
    if state == "28P01" or "password authentication failed" in text:
        return (f'PostgreSQL on {where} refused the password of user "{s["user"]}": set POSTGRES_PASSWORD '
                "to that user's password (or give --db postgresql://USER:PASSWORD@HOST:PORT/NAME)")
    if "no password supplied" in text:
        return (f'PostgreSQL on {where} asks a password of user "{s["user"]}" and none was given: set '
                "POSTGRES_PASSWORD (or give --db postgresql://USER:PASSWORD@HOST:PORT/NAME)")
    if (state == "28000" and "role" in text) or f'role "{s["user"]}" does not exist' in text:
        return (f'PostgreSQL on {where} has no user "{s["user"]}": set POSTGRES_USER to one it has '
                f"(or create it: `createuser -h {s['host']} -p {s['port']} -U postgres {s['user']}`)")
    if "Connection refused" in text or "No such file or directory" in text:
        return (f"nothing answers at {where} (connection refused): is PostgreSQL running there? Start it "
                "(Debian: `pg_ctlcluster VERSION main start`), or point POSTGRES_HOST and POSTGRES_PORT "
                "(or --db postgresql://USER@HOST:PORT/NAME) at the server")
    if "translate host name" in text or "Name or service not known" in text:
        return (f'cannot find the host "{s["host"]}" of POSTGRES_HOST: set POSTGRES_HOST (or --db) to the '
                "PostgreSQL server's name or address")
    if "timeout expired" in text or "timed out" in text:
        return (f"PostgreSQL at {where} did not answer within {CONNECT_TIMEOUT_S:.0f} s: is the address right "
                "and the server up? (POSTGRES_HOST, POSTGRES_PORT, or --db)")
    first = " ".join(text.split())
    return f"cannot connect to PostgreSQL at {where} as {s['user']}: {first}"


def postgres_problem(env: dict[str, str], *, create: bool = False) -> str | None:
    """None when the configured PostgreSQL database can be opened (``create``: made when it
    is missing, as ``herald cluster`` does); else what is wrong, in one line."""
    import psycopg

    s = postgres_settings(env)
    params: dict[str, Any] = {"host": s["host"], "port": s["port"], "user": s["user"], "password": s["password"],
                              "connect_timeout": CONNECT_TIMEOUT_S}
    try:
        psycopg.connect(dbname=s["dbname"], **params).close()
        return None
    except psycopg.Error as error:
        problem = connection_problem(error, s)
        missing = problem.startswith("the PostgreSQL database")
        if not (create and missing):
            return problem
    try:
        with psycopg.connect(dbname="postgres", autocommit=True, **params) as conn:
            if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (s["dbname"],)).fetchone():
                conn.execute(f'CREATE DATABASE "{s["dbname"]}"')
    except psycopg.errors.InsufficientPrivilege:
        return (f'the PostgreSQL database "{s["dbname"]}" does not exist on {s["host"]}:{s["port"]} and user '
                f'"{s["user"]}" may not create it: create it as a user who may (`{createdb_command({**s, "user": "postgres"})}`)')
    except psycopg.errors.DuplicateDatabase:
        return None  # another process made it meanwhile
    except psycopg.Error as error:
        return connection_problem(error, s, dbname="postgres")
    return None


def port_problem(host: str, port: int, what: str, fix: str) -> str | None:
    """None when ``host:port`` can be listened on now; else one line naming ``what`` would
    listen there and ``fix`` (how to choose another port)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_STREAM) as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind((host, port))
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            return f"port {port} on {host} ({what}) is already in use (another Herald, or another server?): {fix}"
        if error.errno == errno.EACCES:
            return f"not allowed to listen on {host}:{port} ({what}; ports below 1024 need privileges): {fix}"
        return f"cannot listen on {host}:{port} ({what}): {error.strerror or error}"
    return None
