"""Several servers, one deployment: table ownership by lease, takeover, command forwarding."""
