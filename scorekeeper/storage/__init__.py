"""The archive in SQLite: the connection and its migrations, the stores (one write transaction at a
time, conflicts decided inside it), the queries the pages read, the kept ratings, backup and restore."""
