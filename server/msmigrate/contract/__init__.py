"""What the server and its editor clients must agree on (settings, commands), as tables; ``generate``
writes the clients' copies (``msmigrate dev generate``)."""
