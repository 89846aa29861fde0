#!/usr/bin/env python3
"""KernelShark's load and zoom on one trace file, for bench/view.sh.

    bench/kernelshark.py FILE [--shot PNG]

Starts its own Xvfb, runs `kernelshark -i FILE` in it and watches the process
from /proc: the load is over when its CPU time (all threads, from each
thread's schedstat) has not grown for LOAD_QUIET seconds; the load time is the
wall time from the start to its last growth, its CPU time that of the whole
process by then (Qt's start-up included).  Then 12 Ctrl+wheel steps on the
graph (8 in, 4 out: KernelShark zooms 5 % per step), each timed the same way
until its CPU stops growing for STEP_QUIET seconds.  Prints JSON: load_s,
load_cpu_s, rss_mb (peak, VmHWM), zoom_ms, zoom_cpu_ms, xvfb_cpu_s.

KernelShark runs as nobody: as root it opens a modal warning dialog before it
reads the file and waits for a click (which is why earlier attempts saw it
start and never load).  The file must be readable by nobody.  Needs Xvfb and
xdotool.
"""
import ctypes
import json
import os
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
import zlib

LOAD_QUIET = 3.0
STEP_QUIET = 0.6
TIMEOUT = 600.0


class Cpu:
	"""CPU time of every thread of pid, from each thread's schedstat (ns).  A thread
	that exits keeps the last time seen: KernelShark's loader threads end before
	the window is idle, and dropping them would look like the load had stopped."""

	def __init__(self, pid):
		self.pid = pid
		self.seen = {}

	def ns(self):
		try:
			tids = os.listdir(f'/proc/{self.pid}/task')
		except FileNotFoundError:
			return None
		for tid in tids:
			try:
				with open(f'/proc/{self.pid}/task/{tid}/schedstat') as f:
					self.seen[tid] = int(f.read().split()[0])
			except (FileNotFoundError, ProcessLookupError):
				pass
		return sum(self.seen.values())


def stat_cpu_s(pid):
	"""utime + stime of the whole process, exited threads included (clock ticks)."""
	with open(f'/proc/{pid}/stat') as f:
		v = f.read().rsplit(')', 1)[1].split()
	return (int(v[11]) + int(v[12])) / os.sysconf('SC_CLK_TCK')


def hwm_kb(pid):
	with open(f'/proc/{pid}/status') as f:
		for line in f:
			if line.startswith('VmHWM:'):
				return int(line.split()[1])
	return 0


def settle(cpu, start, quiet):
	"""Poll until the CPU time stops growing for quiet s; (wall s to last growth, CPU s)."""
	c0 = last = cpu.ns()
	t_last = start
	while time.monotonic() - t_last < quiet:
		if time.monotonic() - start > TIMEOUT:
			raise SystemExit(f'kernelshark still busy after {TIMEOUT:.0f} s')
		time.sleep(0.005)
		c = cpu.ns()
		if c is None:
			raise SystemExit('kernelshark exited: see its output above')
		if c - last > 1_000_000:
			t_last = time.monotonic()
			last = c
	return t_last - start, (last - c0) / 1e9


class XTest:
	"""Pointer and key events straight to the X server: the step's clock starts when
	they are flushed (xdotool's own delays would hide a fast redraw)."""

	def __init__(self, disp):
		self.x = ctypes.CDLL('libX11.so.6')
		self.t = ctypes.CDLL('libXtst.so.6')
		self.x.XOpenDisplay.restype = ctypes.c_void_p
		self.x.XOpenDisplay.argtypes = [ctypes.c_char_p]
		self.d = self.x.XOpenDisplay(disp.encode())
		if not self.d:
			raise SystemExit(f'kernelshark.py: cannot open display {disp}')
		self.x.XKeysymToKeycode.argtypes = [ctypes.c_void_p, ctypes.c_ulong]
		self.x.XFlush.argtypes = [ctypes.c_void_p]
		self.x.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
		for f in ('XTestFakeButtonEvent', 'XTestFakeKeyEvent'):
			getattr(self.t, f).argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_int,
						       ctypes.c_ulong]
		self.t.XTestFakeMotionEvent.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int,
							ctypes.c_int, ctypes.c_ulong]
		self.ctrl = self.x.XKeysymToKeycode(self.d, 0xffe3)  # XK_Control_L

	def move(self, x, y):
		self.t.XTestFakeMotionEvent(self.d, -1, x, y, 0)
		self.x.XSync(self.d, 0)

	def ctrl_wheel(self, button):
		self.t.XTestFakeKeyEvent(self.d, self.ctrl, 1, 0)
		self.t.XTestFakeButtonEvent(self.d, button, 1, 0)
		self.t.XTestFakeButtonEvent(self.d, button, 0, 0)
		self.t.XTestFakeKeyEvent(self.d, self.ctrl, 0, 0)
		self.x.XSync(self.d, 0)


def xwd_to_png(xwd, png):
	"""The Xvfb framebuffer (XWD, 32 bpp) as a PNG, to check what was drawn."""
	with open(xwd, 'rb') as f:
		d = f.read()
	hdr = struct.unpack('>25I', d[:100])
	hsize, w, h, bpl, ncolors = hdr[0], hdr[4], hdr[5], hdr[12], hdr[19]
	off = hsize + ncolors * 12
	rows = []
	for y in range(h):
		r = d[off + y * bpl: off + y * bpl + w * 4]
		px = bytearray(w * 3)
		px[0::3], px[1::3], px[2::3] = r[2::4], r[1::4], r[0::4]
		rows.append(b'\0' + bytes(px))

	def chunk(t, b):
		c = struct.pack('>I', len(b)) + t + b
		return c + struct.pack('>I', zlib.crc32(t + b) & 0xffffffff)
	with open(png, 'wb') as f:
		f.write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0))
			+ chunk(b'IDAT', zlib.compress(b''.join(rows))) + chunk(b'IEND', b''))


def free_display():
	n = 90
	while os.path.exists(f'/tmp/.X11-unix/X{n}') or os.path.exists(f'/tmp/.X{n}-lock'):
		n += 1
	return f':{n}'


def main():
	if len(sys.argv) < 2:
		print('usage: kernelshark.py FILE [--shot PNG]', file=sys.stderr)
		sys.exit(2)
	trace = os.path.abspath(sys.argv[1])
	shot = sys.argv[sys.argv.index('--shot') + 1] if '--shot' in sys.argv else None
	for tool in ('kernelshark', 'Xvfb', 'xdotool', 'setpriv'):
		if not shutil.which(tool):
			sys.exit(f'kernelshark.py: {tool} is missing (scripts/install-deps.sh installs it)')
	nobody = ['setpriv', '--reuid=nobody', '--regid=nogroup', '--clear-groups']
	if subprocess.run(nobody + ['test', '-r', trace]).returncode != 0:
		sys.exit(f'kernelshark.py: {trace} is not readable by nobody (chmod a+r it and its '
			 'directories)')
	tmp = tempfile.mkdtemp(prefix='tracekit-ks-')
	os.chmod(tmp, 0o755)
	home = os.path.join(tmp, 'home')
	os.mkdir(home)
	shutil.chown(home, 'nobody')
	disp = free_display()
	xvfb = subprocess.Popen(['Xvfb', disp, '-screen', '0', '1600x1000x24', '-nolisten', 'tcp',
				 '-fbdir', tmp], stderr=subprocess.DEVNULL)
	env = dict(os.environ, DISPLAY=disp, HOME=home, XDG_RUNTIME_DIR='', QT_QPA_PLATFORM='xcb')
	ks = None
	try:
		for _ in range(100):
			if os.path.exists(f'/tmp/.X11-unix/X{disp[1:]}'):
				break
			time.sleep(0.05)
		start = time.monotonic()
		ks = subprocess.Popen(nobody + ['kernelshark', '-i', trace], env=env,
				      stdout=subprocess.DEVNULL,
				      stderr=subprocess.DEVNULL, cwd=home)
		# setpriv execs kernelshark: the pid is the same process.
		cpu = Cpu(ks.pid)
		load_s, _ = settle(cpu, start, LOAD_QUIET)
		load_cpu = stat_cpu_s(ks.pid)
		rss = hwm_kb(ks.pid)
		win = subprocess.run(['xdotool', 'search', '--name', 'Kernel Shark'], env=env,
				     capture_output=True, text=True).stdout.split()
		if not win:
			sys.exit('kernelshark.py: no KernelShark window')
		w = win[-1]
		subprocess.run(['xdotool', 'windowsize', '--sync', w, '1600', '1000'], env=env)
		settle(cpu, time.monotonic(), STEP_QUIET)
		# Between the two CPU lanes of the graph (at the top of the 1600x1000 window,
		# at the screen's origin: there is no window manager).
		xt = XTest(disp)
		xt.move(900, 190)
		settle(cpu, time.monotonic(), STEP_QUIET)
		time.sleep(1)
		zoom_ms, zoom_cpu = [], []
		for k in range(12):
			t = time.monotonic()
			xt.ctrl_wheel(4 if k < 8 else 5)
			s, c = settle(cpu, t, STEP_QUIET)
			if c < 0.001:
				sys.exit(f'kernelshark.py: zoom step {k + 1} drew nothing'
					 ' (the wheel missed the graph?)')
			zoom_ms.append(round(s * 1000, 1))
			zoom_cpu.append(round(c * 1000, 1))
		if shot:
			xwd_to_png(os.path.join(tmp, 'Xvfb_screen0'), shot)
		print(json.dumps({'load_s': round(load_s, 2), 'load_cpu_s': round(load_cpu, 2),
				  'rss_mb': round(rss / 1024, 1), 'zoom_ms': zoom_ms, 'zoom_cpu_ms': zoom_cpu,
				  'xvfb_cpu_s': stat_cpu_s(xvfb.pid)}))
	finally:
		for p in (ks, xvfb):
			if p and p.poll() is None:
				p.send_signal(signal.SIGTERM)
				try:
					p.wait(5)
				except subprocess.TimeoutExpired:
					p.kill()
					p.wait()
		shutil.rmtree(tmp, ignore_errors=True)


if __name__ == '__main__':
	main()
