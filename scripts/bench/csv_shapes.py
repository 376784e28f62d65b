#!/usr/bin/env python3
"""CSV lines of shapes gsort-gen does not write, for keyed line sorts
(scripts/bench.sh keyed): NUMBER,NAME,COUNT,WORD, with

  few     a 9-digit-or-shorter integer, one of 16 names (a few distinct
          leading keys under -k2,2 -k1,1n)
  dec     a signed decimal such as -12345.678, one of 16 names
  prefix  a zero-padded 12-digit integer, one of 16 names behind a
          24-byte common prefix (customer/account/region/)
  many    an integer, one of 50,000 random words (too many to rank)
  dups    one of 1,000 integers, one of 16 names (duplicate keys; the
          last resort decides)
  accents NUMBER,NAME,WORD,COUNT: WORD one of 50,000 words with accented
          letters, capitals, apostrophes and hyphens (for a locale's
          collation: -t, -k3,3)

Usage: csv_shapes.py SHAPE BYTES OUTPUT [SEED]. The same arguments write
the same bytes on any machine: 16 parts, each from its own seed, written
by as many processes as there are cores and joined in order.
"""
import multiprocessing
import os
import random
import sys

NAMES = ["Smith", "O'Brien", "lee", "Van Dyke", "Smith-Jones", "Garcia", "Miller", "Davis", "Rodriguez",
         "Martinez", "Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas"]


def words(seed):
    r = random.Random(seed)
    return ["".join(r.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(r.randrange(3, 12))) for _ in range(50000)]


ACCENTED = "abcdefghijklmnopqrstuvwxyz" * 3 + "éèêëàâäåçñöôüûíïøæ"


def accented_words(seed):
    r = random.Random(seed)
    out = []
    for _ in range(50000):
        w = "".join(r.choice(ACCENTED) for _ in range(r.randrange(3, 12)))
        x = r.random()
        if x < 0.2:
            w = w[0].upper() + w[1:]
        elif x < 0.25:
            w = w[:2] + "'" + w[2:]
        elif x < 0.3:
            w = w[:3] + "-" + w[3:]
        out.append(w)
    return out


def part(args):
    shape, bytes_wanted, path, seed = args
    r = random.Random(seed)
    many = words(1) if shape == "many" else accented_words(1) if shape == "accents" else None
    out, size = [], 0
    with open(path, "w", encoding="utf-8") as f:
        while size < bytes_wanted:
            if shape == "dec":
                num = "%d.%03d" % (r.randrange(-10**6, 10**6), r.randrange(1000))
            elif shape == "prefix":
                num = "%012d" % r.randrange(10**12)
            elif shape == "dups":
                num = str(r.randrange(1000))
            else:
                num = str(r.randrange(10**9))
            name = many[r.randrange(len(many))] if many else NAMES[r.randrange(16)]
            if shape == "prefix":
                name = "customer/account/region/" + name
            if shape == "accents":
                line = "%s,%s,%s,%d\n" % (num, NAMES[r.randrange(16)], name, r.randrange(100000))
            else:
                line = "%s,%s,%d,%s\n" % (num, name, r.randrange(100000), "x" * r.randrange(5, 30))
            out.append(line)
            size += len(line.encode())
            if len(out) >= 65536:
                f.write("".join(out))
                out = []
        f.write("".join(out))


def main():
    shape, total, output = sys.argv[1], int(float(sys.argv[2])), sys.argv[3]
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    count = 16
    parts = ["%s.part%d" % (output, i) for i in range(count)]
    with multiprocessing.Pool(os.cpu_count() or 1) as pool:
        pool.map(part, [(shape, total // count, parts[i], seed * 1000 + i) for i in range(count)])
    with open(output, "wb") as f:
        for p in parts:
            with open(p, "rb") as g:
                while True:
                    block = g.read(1 << 24)
                    if not block:
                        break
                    f.write(block)
            os.remove(p)


if __name__ == "__main__":
    main()
