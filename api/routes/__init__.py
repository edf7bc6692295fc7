"""The HTTP routes, one module per part of the API. Thin: parse the request, call one
application service (:mod:`api.services`), encode its answer (:mod:`api.wire`)."""
