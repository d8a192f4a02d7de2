#!/usr/bin/python3
# tests/limits/mkbomb.py IN.darshan OUT.darshan [GIB] - a decompression bomb
# (issue 17 point 6): IN with its POSIX region (slot 1) replaced by one zlib
# stream of GIB GiB of zeros (default 2; level 9: about 2 MB stored),
# appended at the end of the file. IN must be a 3.41 log (1328-byte header).
# Prints the stored length of the bomb region.
import struct, sys, zlib
src, dst = sys.argv[1], sys.argv[2]
gib = float(sys.argv[3]) if len(sys.argv) > 3 else 2.0
data = bytearray(open(src, 'rb').read())
assert data[:4] == b'3.41', 'not a 3.41 log'
c = zlib.compressobj(9)
chunk = bytes(16 << 20)
parts = []
for _ in range(int(gib * 1024 / 16)):
    parts.append(c.compress(chunk))
parts.append(c.flush())
bomb = b''.join(parts)
off = len(data)
struct.pack_into('<QQ', data, 48 + 16 * 1, off, len(bomb))
if struct.unpack_from('<I', data, 1072 + 4 * 1)[0] == 0:
    struct.pack_into('<I', data, 1072 + 4 * 1, 4)  # POSIX record version
open(dst, 'wb').write(bytes(data) + bomb)
print(len(bomb))
