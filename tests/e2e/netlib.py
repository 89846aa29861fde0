"""trace-cmd's listen protocol from Python, for the net tests: a client that can
stop anywhere or send what no client should (tracekit listen must survive it).

The wire format is trace-cmd 3.1's (docs/net.md): the listener greets with
"tracecmd", the client answers "-1V3\\0", the listener "V3\\0", the client its
8-byte magic, the listener "OK"; then 12-byte big-endian message headers
{size, cmd, cmd_size}.
"""

import socket
import struct

CLOSE, TINIT, RINIT, SEND_DATA, FIN_DATA = 0, 1, 2, 3, 4
MAGIC = b'766679\0\0'


def msg(cmd, body=b'', data=b''):
    return struct.pack('>III', 12 + len(body) + len(data), cmd, len(body)) + body + data


def recv_exact(s, n):
    buf = b''
    while len(buf) < n:
        chunk = s.recv(n - len(buf))
        if not chunk:
            raise EOFError('the listener closed the connection')
        buf += chunk
    return buf


def recv_msg(s):
    size, cmd, cmd_size = struct.unpack('>III', recv_exact(s, 12))
    rest = recv_exact(s, size - 12)
    return cmd, rest[:cmd_size], rest[cmd_size:]


class Client:
    """One client: connect, greet, TINIT; RINIT's ports; the data sockets."""

    def __init__(self, port, cpus=1, page=4096, tcp=True, greet=True):
        self.s = socket.create_connection(('127.0.0.1', port), timeout=10)
        self.cpus, self.page, self.tcp = cpus, page, tcp
        self.data = []
        if greet:
            self.greet()

    def greet(self):
        assert recv_exact(self.s, 8) == b'tracecmd'
        self.s.sendall(b'-1V3\0')
        assert recv_exact(self.s, 3) == b'V3\0'
        self.s.sendall(MAGIC)
        assert recv_exact(self.s, 2) == b'OK'

    def tinit(self):
        opts = b'tcp\0' if self.tcp else b''
        self.s.sendall(msg(TINIT, struct.pack('>III', self.cpus, self.page, 1 if self.tcp else 0),
                           opts))
        cmd, body, data = recv_msg(self.s)
        assert cmd == RINIT, 'expected RINIT, got %d' % cmd
        ports = [int(p) for p in data.split(b'\0')[:struct.unpack('>I', body)[0]]]
        for p in ports:
            if self.tcp:
                self.data.append(socket.create_connection(('127.0.0.1', p), timeout=10))
            else:
                u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
                u.connect(('127.0.0.1', p))
                self.data.append(u)
        return ports

    def metadata(self, meta):
        for i in range(0, len(meta), 8180):
            self.s.sendall(msg(SEND_DATA, b'', meta[i:i + 8180]))
        self.s.sendall(msg(FIN_DATA))

    def pages(self, cpu, data):
        if self.tcp:
            self.data[cpu].sendall(data)
        else:
            for i in range(0, len(data), self.page):
                self.data[cpu].send(data[i:i + self.page])

    def close(self, polite=True):
        for d in self.data:
            d.close()
        if polite:
            self.s.sendall(msg(CLOSE))
        self.s.close()


def split_trace(path):
    """A version 7 trace file made by tracekit record as a client streams it: the
    metadata (up to the first options section, its DONE link zeroed) and each
    CPU's pages {cpu: bytes}."""
    b = open(path, 'rb').read()
    assert b[:10] == b'\x17\x08\x44tracing' and b[10:12] == b'7\0', 'not a v7 trace file'
    off = 12 + 2 + 4
    for _ in range(2):              # compression name and version
        off = b.index(b'\0', off) + 1
    first = struct.unpack_from('<Q', b, off)[0]
    meta, pages, sec = None, {}, first
    while sec:
        size = struct.unpack_from('<Q', b, sec + 8)[0]
        pos, end, nxt = sec + 16, sec + 16 + size, 0
        while pos < end:
            oid, length = struct.unpack_from('<HI', b, pos)
            data = b[pos + 6:pos + 6 + length]
            if oid == 0:
                nxt = struct.unpack('<Q', data)[0]
                if meta is None:
                    meta = b[:pos + 6] + b'\0' * 8 + b[pos + 14:end]
                break
            if oid == 3:                # BUFFER: offset, name, clock, page size, cpus
                p = 8
                p = data.index(b'\0', p) + 1
                p = data.index(b'\0', p) + 1
                _, n = struct.unpack_from('<II', data, p)
                p += 8
                for _ in range(n):
                    cpu, o, sz = struct.unpack_from('<IQQ', data, p)
                    p += 20
                    pages[cpu] = b[o:o + sz]
            pos += 6 + length
        sec = nxt
    return meta, pages
