"""This machine on the home network: its names and addresses, its certificate authority and the
HTTPS server's certificate and connections."""
