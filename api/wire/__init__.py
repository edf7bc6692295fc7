"""What travels over HTTP: the request and response bodies, one definition of each shape.

msgspec Structs, decoded and encoded by :mod:`api.http` and documented in the OpenAPI
document from these same types. Services take and return them; routes only pass them on."""
