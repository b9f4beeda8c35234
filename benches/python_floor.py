#!/usr/bin/env python3
"""The Python reference for the ingest benchmark (benches/ingest/):
the same minimal job as the bench's Rust floor, done the plain way.

    python3 benches/python_floor.py FEED.json OUT.db

Reads the Madrid JSON-LD agenda with json.loads(strict=False) (the feed has
raw line breaks inside strings), then inserts one row per event of `@graph`
into a single table with sqlite3 executemany, in one transaction. No
normalization, no scrubbing, no dedup: a floor, not a port. Prints the
number of events stored. Time and peak RSS are measured from outside by the
bench, like every other row of its table.
"""

import json
import sqlite3
import sys

# Same table and pragmas as the Rust floor (benches/ingest/main.rs).
CREATE = """CREATE TABLE events (
    id TEXT, title TEXT, description TEXT, free INTEGER, price TEXT,
    dtstart TEXT, dtend TEXT, time TEXT, excluded TEXT, days TEXT,
    link TEXT, venue TEXT, street TEXT, locality TEXT, postal_code TEXT,
    district TEXT, lat REAL, lon REAL, type TEXT, audience TEXT)"""
INSERT = "INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"


def obj(v):
    return v if isinstance(v, dict) else {}


def rows(graph):
    for e in graph:
        address = obj(e.get("address"))
        area = obj(address.get("area"))
        location = obj(e.get("location"))
        yield (
            e.get("id"),
            e.get("title"),
            e.get("description"),
            e.get("free"),
            e.get("price"),
            e.get("dtstart"),
            e.get("dtend"),
            e.get("time"),
            e.get("excluded-days"),
            obj(e.get("recurrence")).get("days"),
            e.get("link"),
            e.get("event-location"),
            area.get("street-address"),
            area.get("locality"),
            area.get("postal-code"),
            obj(address.get("district")).get("@id"),
            location.get("latitude"),
            location.get("longitude"),
            e.get("@type"),
            e.get("audience"),
        )


def main():
    feed, db = sys.argv[1], sys.argv[2]
    with open(feed, encoding="utf-8") as f:
        doc = json.loads(f.read(), strict=False)
    graph = doc["@graph"]
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute(CREATE)
    with conn:  # one transaction
        conn.executemany(INSERT, rows(graph))
    conn.close()
    print(len(graph))


if __name__ == "__main__":
    main()
