/*
 * tracekit view: the timeline page's script (embedded into the page at build time).
 *
 * The data is the JSON in #tk-data, written by src/export/view.c.  Times in it are
 * nanoseconds after t0; the page shows them as trace-cmd does, in seconds since
 * the trace clock's zero.  Every string from the trace reaches the page only through
 * textContent or the canvas, never as markup.
 *
 * Drawing stays proportional to the canvas width, not to the trace: spans of a
 * pixel or more are drawn as they are; the spans smaller than a pixel that end in
 * one pixel column are drawn as one bar, found by binary search on the span ends
 * (sorted: a lane's spans never overlap) and measured with prefix sums of their
 * lengths.  On a CPU lane the bar's height is the column's busy fraction, so a
 * lane drawn at any zoom is as busy as `tracekit sched` says; on a task lane the
 * column is stacked with the share of each state (off-CPU time by its cause), so
 * a lane drawn zoomed out is as much running, waiting or asleep as it was.
 */
'use strict';
(function () {
	const D = JSON.parse(document.getElementById('tk-data').textContent);
	const MACH = tkMachines(D);	/* several files: machine groups (machines.js) */
	/*
	 * A window served by `view --serve` comes from several chunks, each with the
	 * spans closed while it was read, and the spans crossing into it: put in start
	 * order, as lanes need them (a flat array of w numbers a span, its start at k).
	 */
	function byStart(a, w, k) {
		const idx = [];
		for (let i = 0; i + w - 1 < a.length; i += w)
			idx.push(i);
		idx.sort((p, q) => a[p + k] - a[q + k]);
		return idx.flatMap((i) => a.slice(i, i + w));
	}
	if (D.serve && D.serve.window) {
		D.cpuSpans = byStart(D.cpuSpans, 4, 1);
		for (const m of [D.taskSpans, D.sysSpans])
			for (const pid in m)
				m[pid] = byStart(m[pid], 4, 0);
	}
	const LABEL_W = 160, AXIS_H = 26, LANE_H = 22, TICK_H = 5, ROW_H = 18;
	const CLOSE_W = 16;	/* a lane name's x button, at its right end */
	const STATES = ['', 'running', 'runnable', 'sleeping', 'blocked'];
	const STATE_COL = ['', '#38a169', '#e53e3e', '#cbd5e0', '#ed8936'];
	/*
	 * What a task lane draws: its state, off-CPU time told by its cause (the 1..4 are
	 * the states' own).  A sleep's cause is the syscall it slept in and, for a futex,
	 * what sched knows of the word (D.futexNames: a lock's symbol or a join); blocked
	 * (D) is taken as I/O.  Colours far (> 60 in RGB) from the threads' palette.
	 */
	const CAUSES = [null,
		{ name: 'running', col: STATE_COL[1] },
		{ name: 'waiting for a CPU (runnable)', col: STATE_COL[2] },
		{ name: 'asleep, other', col: STATE_COL[3] },
		{ name: 'I/O (blocked, or asleep in a read/write/poll)', col: STATE_COL[4] },
		{ name: 'lock (named on the span)', col: '#285e61' },
		{ name: 'join (waits for a thread)', col: '#fbd38d' },
		{ name: 'timer sleep', col: '#63b3ed' }];
	const C_IO = 4, C_LOCK = 5, C_JOIN = 6, C_TIMER = 7;
	const CAUSE_ORDER = [1, 2, C_LOCK, C_JOIN, C_IO, C_TIMER, 3];	/* bottom up in a column */
	const TIMER_CALLS = /^(clock_)?nanosleep$/;
	const IO_CALLS = /^(p?read|p?write|readv|writev|preadv2?|pwritev2?|f?sync|fdatasync|syncfs|sync_file_range|io_\w+|poll|ppoll|select|pselect6|epoll_p?wait2?|recv\w*|send\w*|accept4?|connect|sendfile|splice|tee|open|openat2?|wait4|waitid)$/;
	const ARROW_COL = '#1a202c';
	const SYS_COL = '#2b6cb0', HIT_COL = '#ecc94b';
	const USER_COL = '#dd6b20';
	const LOD_PER_COL = 3;	/* bins a pixel column at least, past the cap: drawLod */
	/* function_graph calls: one row per call depth, warm colours by function (a flame chart). */
	const FG_ROW_H = 12;
	const FG_COLS = ['#f6ad55', '#fc8181', '#f6e05e', '#ed8936', '#e9a23b', '#f4a582', '#d6a33a',
		'#f08a5d', '#e6b655', '#f7c873', '#ee9b8f', '#dd8f4e'];
	/*
	 * Task colours on the CPU lanes: the recorded command's threads take the distinct,
	 * saturated ones in pid order (picked far apart from each other, at least ~100 in RGB
	 * distance); every other task one of a few muted greys, so the program stands out.
	 * None is near a state colour (green, red, grey, orange) or the syscall blue.
	 */
	const PALETTE = ['#4c51bf', '#05c7b7', '#f910f9', '#8b0431', '#7efcfc', '#fc7ea8', '#04048b',
		'#b31999', '#5f6b24', '#1010f9', '#a34cfa', '#a7c705'];
	const OTHERS = ['#a0aec0', '#8a97ab', '#b8c0cc', '#7a8699', '#c3c9d3', '#95a0b2'];

	function el(tag, attrs, text) {
		const e = document.createElement(tag);
		for (const k in attrs || {})
			e.setAttribute(k, attrs[k]);
		if (text !== undefined)
			e.textContent = text;
		return e;
	}

	/* ---- data model ---- */
	const comm = new Map();
	for (const t of D.tasks)
		comm.set(t[0], t[1]);
	const commOf = (pid) => pid === 0 ? '<idle>' : (comm.get(pid) || '<...>');
	const sysName = (nr) => (D.sysNames || {})[nr] || ('syscall_' + nr);
	const types = D.types.map((t) => ({ name: t[0], short: t[0].split(':').pop(), fields: t[1] }));
	const ev = D.events;
	const t0 = D.t0, end = Math.max(D.end, 1);
	const evT = Float64Array.from(ev, (e) => e[0]);

	function lowerBound(arr, t) {	/* first i with arr[i] >= t */
		let lo = 0, hi = arr.length;
		while (lo < hi) {
			const mid = (lo + hi) >> 1;
			if (arr[mid] < t)
				lo = mid + 1;
			else
				hi = mid;
		}
		return lo;
	}

	/*
	 * cum[i]: the length of spans 0..i-1; byVal[v][i]: the same for spans of drawn
	 * value v only.  dv: what a span is drawn as (a task's cause), vals by default.
	 */
	function spanLane(starts, ends, vals, perValue, dv) {
		const n = starts.length, cum = new Float64Array(n + 1), byVal = {};
		dv = dv || vals;
		for (let i = 0; i < n; i++)
			cum[i + 1] = cum[i] + ends[i] - starts[i];
		for (const v of perValue ? new Set(dv) : []) {
			const c = byVal[v] = new Float64Array(n + 1);
			for (let i = 0; i < n; i++)
				c[i + 1] = c[i] + (dv[i] === v ? ends[i] - starts[i] : 0);
		}
		return { starts: Float64Array.from(starts), ends: Float64Array.from(ends), vals: vals,
			dv: dv, cum: cum, byVal: perValue ? byVal : null };
	}

	const cpuLanes = [];
	{
		const tmp = [];
		for (let c = 0; c < D.cpus; c++)
			tmp.push({ s: [], e: [], v: [] });
		const cs = D.cpuSpans;
		for (let i = 0; i + 3 < cs.length; i += 4) {
			const l = tmp[cs[i]];
			l.s.push(cs[i + 1]); l.e.push(cs[i + 2]); l.v.push(cs[i + 3]);
		}
		for (let c = 0; c < D.cpus; c++) {
			const evs = [];
			for (let i = 0; i < ev.length; i++)
				if (ev[i][1] === c)
					evs.push(i);
			const lane = spanLane(tmp[c].s, tmp[c].e, tmp[c].v);
			lane.kind = 'cpu'; lane.cpu = c; lane.label = MACH.cpuLabel(c);
			lane.evIdx = Int32Array.from(evs);
			lane.evT = Float64Array.from(evs, (i) => ev[i][0]);
			cpuLanes.push(lane);
		}
	}
	/* Each task's events, for picking on its lane and search hits there. */
	const evByPid = new Map();
	ev.forEach((e, i) => {
		let a = evByPid.get(e[2]);
		if (!a)
			evByPid.set(e[2], a = []);
		a.push(i);
	});
	/* Any task's lane, made when first shown: its states (running ones with their CPU) and syscalls. */
	const taskLaneOf = new Map();
	function taskLane(pid) {
		if (taskLaneOf.has(pid))
			return taskLaneOf.get(pid);
		const sp = D.taskSpans[pid] || [];
		const s = [], e = [], v = [], c = [];
		for (let i = 0; i + 3 < sp.length; i += 4) {
			s.push(sp[i]); e.push(sp[i + 1]); v.push(sp[i + 2]); c.push(sp[i + 3]);
		}
		/* Syscalls (when they were recorded): a strip under the state bar. */
		const sy = (D.sysSpans || {})[pid] || [];
		const ss = [], se = [], sv = [], sa = [];
		for (let i = 0; i + 3 < sy.length; i += 4) {
			ss.push(sy[i]); se.push(sy[i + 1]); sv.push(sy[i + 2]); sa.push(sy[i + 3]);
		}
		const sys = spanLane(ss, se, sv);
		sys.args = sa;
		const causes = s.map((a, k) => causeOf(sys, v[k], a));
		const lane = spanLane(s, e, v, true, causes.map((x) => x.cat));
		lane.order = CAUSE_ORDER;
		lane.why = causes;
		lane.sys = sys;
		lane.cpus = Int16Array.from(c);
		lane.kind = 'task'; lane.pid = pid; lane.comm = commOf(pid);
		lane.label = MACH.taskLabel(pid, lane.comm);
		const idx = evByPid.get(pid) || [];
		lane.evIdx = Int32Array.from(idx);
		lane.evT = Float64Array.from(idx, (i) => ev[i][0]);
		/* User tracepoints: instants and NAME_begin..NAME_end slices, a strip above. */
		const um = (D.userMarks || {})[pid] || [];
		const order = [];
		for (let i = 0; i + 2 < um.length; i += 3)
			order.push(i);
		order.sort((a, b) => um[a] - um[b]);	/* nested slices end inner first */
		lane.user = spanLane(order.map((i) => um[i]), order.map((i) => um[i + 1]),
			order.map((i) => um[i + 2]));
		lane.user.maxLen = order.reduce((m, i) => Math.max(m, um[i + 1] - um[i]), 0);
		lane.calls = callsLane(lane);
		taskLaneOf.set(pid, lane);
		return lane;
	}
	/*
	 * Why a task was not running over a span of state st from a: its cause (CAUSES)
	 * and what to call it: the syscall it slept in, and for a futex the lock or join.
	 */
	function causeOf(sys, st, a) {
		if (st !== 3 && st !== 4)
			return { cat: st };
		const k = spanAt(sys, a + 1);
		const name = k >= 0 ? sysName(sys.vals[k]) : null, word = k >= 0 ? sys.args[k] : 0;
		if (name === 'futex' && word) {
			const known = (D.futexNames || {})[word];
			const join = known && /^a join/.test(known);
			const lock = known ? known.replace(/^the lock /, '') : 'futex 0x' + word.toString(16);
			return { cat: join ? C_JOIN : C_LOCK, call: name, word: word, known: known,
				label: join ? 'join' : lock };
		}
		if (name && TIMER_CALLS.test(name))
			return { cat: C_TIMER, call: name };
		if (st === 4 || (name && IO_CALLS.test(name)))
			return { cat: C_IO, call: name };
		return { cat: 3, call: name };
	}
	/*
	 * A task's function_graph calls ([start, end, depth, function, the kernel's
	 * duration] per call, from view_calls.c): a lane of its own under the task's, a
	 * row per depth.  In a row one thread's calls follow each other without
	 * overlapping, as a lane's spans do.  Drawn on the trace clock (entry to exit);
	 * the tooltip gives the kernel's duration, which report and calls print.
	 */
	function callsLane(task) {
		const fc = (D.fgCalls || {})[task.pid];
		if (!fc || !fc.length)
			return null;
		const byDepth = [];
		for (let i = 0; i + 4 < fc.length; i += 5)
			(byDepth[fc[i + 2]] = byDepth[fc[i + 2]] || []).push(i);
		const rows = [];
		for (let d = 0; d < byDepth.length; d++) {
			const r = (byDepth[d] || []).sort((a, b) => fc[a] - fc[b]);
			const row = spanLane(r.map((i) => fc[i]), r.map((i) => fc[i + 1]), r.map((i) => fc[i + 3]));
			row.durs = r.map((i) => fc[i + 4]);
			rows.push(row);
		}
		return { kind: 'calls', pid: task.pid, task: task, rows: rows, n: fc.length / 5,
			label: '\u21b3 calls ' + task.pid, comm: '\u21b3 calls', h: rows.length * FG_ROW_H + 4 };
	}
	const fnName = (k) => (D.fgFuncs || [])[k] || '?';
	const fnColour = (k) => FG_COLS[((k * 2654435761) >>> 0) % FG_COLS.length];
	const taskLanes = D.tasks.filter((t) => t[2]).map((t) => taskLane(t[0]));
	taskLanes.sort((a, b) => a.pid - b.pid);
	const palIndex = new Map(taskLanes.map((l, k) => [l.pid, k]));
	function colour(pid) {
		const k = palIndex.get(pid);
		if (k !== undefined && k < PALETTE.length)
			return PALETTE[k];
		return OTHERS[((pid * 2654435761) >>> 0) % OTHERS.length];
	}
	const truncated = D.kept < D.total;
	const lod = D.lod;	/* levels of detail past the cap: drawLod */
	const ovLanes = truncated ? cpuLanes.map((l) => ({ kind: 'ov', cpu: l.cpu,
		label: 'CPU ' + l.cpu + ' busy' })) : [];
	/* The lanes shown: pinned ones first, hidden ones left out; added task lanes at the end. */
	const allLanes = MACH.order(cpuLanes.concat(ovLanes,
		taskLanes.flatMap((l) => l.calls ? [l, l.calls] : [l])));
	const pinned = [], hidden = new Set();
	let lanes = [], tops = [];
	const laneH = (l) => l.h || LANE_H;
	/* Lanes differ in height (a calls lane has a row per depth): their tops, once per layout. */
	function layout() {
		lanes = pinned.concat(allLanes.filter((l) => !pinned.includes(l) && !hidden.has(l)));
		tops = [];
		let y = AXIS_H;
		for (const l of lanes) {
			tops.push(y);
			y += laneH(l);
		}
		tops.push(y);
	}
	layout();

	/* ---- page ---- */
	const header = el('header');
	header.append(el('h1', {}, 'tracekit view'));
	const summary = el('span', { id: 'summary' });
	summary.textContent = (D.file || '') + ' \u2014 ' + D.total + ' events, ' + D.cpus + ' CPUs' +
		(D.notes.command ? ', command: ' + D.notes.command : '') +
		', clock ' + D.clock + ', ' + fmtDur(end);
	summary.dataset.cpuLanes = D.cpus;
	summary.dataset.taskLanes = taskLanes.length;
	summary.dataset.events = D.total;
	summary.dataset.kept = D.kept;
	header.append(summary);
	const notice = el('div', { id: 'notice' });
	/* A big trace: what is in detail, and the command that gives any window in detail. */
	const detailEnd = ev.length ? ev[ev.length - 1][0] : 0;
	const windowCmd = el('code', { id: 'window-cmd' });
	const lodStatus = el('span', { id: 'lod-status' });
	const served = D.serve || null;
	if (served) {
		const W = served.window, S = served.starts;
		notice.append(W ? 'Served by tracekit view --serve: the ' + D.kept + ' events from ' +
			fmtTs(S[W[0]]) + ' to ' + (W[1] + 1 < S.length ? fmtTs(S[W[1] + 1]) : 'the end') +
			' in full detail. Zoom out or pan past them and the page asks the server for ' +
			'the window in view. ' : 'Served by tracekit view --serve: ' + D.total + ' events, ' +
			'drawn here as levels of detail. Zoom in to a window of up to about ' +
			served.maxChunks * Math.ceil(D.total / Math.max(S.length, 1)) + ' events and the ' +
			'page asks the server for it in full detail. ', lodStatus);
	} else if (truncated) {
		notice.append('This trace has ' + D.total + ' events: the first ' + D.kept +
			' (up to ' + fmtTs(detailEnd) + ') are shown in detail, the rest ' +
			(lod ? 'as a summary on the same lanes (levels of detail; zoom in: the bins get ' +
				'finer down to ' + fmtDur(lod.levels[0].bin) + ')' : 'not') +
			'; the "busy" lanes are an overview of the whole trace. ', lodStatus,
			'The part in view, in detail:', el('br'), windowCmd);
	}
	/* `tracekit view` of [a, b] (relative ns), from the trace clock's seconds. */
	function windowCommand(a, b) {
		const s = (t, up) => ((up ? Math.ceil : Math.floor)((t0 + t) / 1e3) / 1e6).toFixed(6);
		const q = (p) => /^[\w.\/-]+$/.test(p) ? p : "'" + p.replace(/'/g, "'\\''") + "'";
		return 'tracekit view -i ' + q(D.file || 'trace.dat') + ' --from ' + s(Math.max(a, 0)) +
			' --to ' + s(Math.min(b, end), true) + ' -o window.html';
	}
	const toolbar = el('div', { id: 'toolbar' });
	const btn = (label, fn, title) => {
		const b = el('button', { title: title || '' }, label);
		b.addEventListener('click', fn);
		toolbar.append(b);
		return b;
	};
	const range = el('span', { id: 'range' });
	const markers = el('span', { id: 'markers' });
	btn('\u2212', () => zoom(2, 0.5), 'zoom out (-)');
	btn('+', () => zoom(0.5, 0.5), 'zoom in (+)');
	btn('\u2190', () => pan(-0.25), 'pan left (\u2190)');
	btn('\u2192', () => pan(0.25), 'pan right (\u2192)');
	btn('all', () => setView(0, end), 'whole trace (0)');
	btn('\u00d7AB', () => { mark = [null, null]; draw(); }, 'clear markers A and B');
	/* Any task, or a hidden lane, by name or pid. */
	const addLane = el('input', { id: 'add-lane', list: 'tk-lanes',
		placeholder: 'add lane: task, pid', title: 'any task of the trace, or a hidden lane' });
	const choices = el('datalist', { id: 'tk-lanes' });
	for (const t of D.tasks.slice().sort((a, b) => a[0] - b[0]))
		if (D.taskSpans[t[0]])
			choices.append(el('option', { value: t[1] + ' ' + t[0] }));
	const help = el('span', { id: 'help', title: 'wheel, + and -: zoom; drag: zoom to a range; ' +
		'shift+drag, \u2190 \u2192: pan; click: marker A and the event under the pointer; ' +
		'shift+click: marker B; click a lane name: pin it on top (again: unpin); ' +
		'its \u00d7: hide it' }, '?');
	toolbar.append(range, markers, addLane, choices, help);
	const wrap = el('div', { id: 'tl-wrap' });
	const canvas = el('canvas', { id: 'timeline', tabindex: '0' });
	const tip = el('div', { id: 'tip' });
	wrap.append(canvas, tip);
	const legend = el('div', { id: 'legend' });
	/* The key of the task lanes: each state, off-CPU time by its cause. */
	const causeKey = el('span', { id: 'causes' });
	causeKey.append('task lanes (a column stacks the share of each):');
	for (const k of CAUSE_ORDER) {
		const sw = el('span', { class: 'sw' });
		sw.style.background = CAUSES[k].col;
		sw.dataset.cause = CAUSES[k].name;
		causeKey.append(sw, CAUSES[k].name);
	}
	legend.append(causeKey);
	if (taskLanes.some((l) => l.sys.starts.length)) {
		const sw = el('span', { class: 'sw' });
		sw.style.background = SYS_COL;
		legend.append(sw, 'in a syscall (strip under the state)');
	}
	if (taskLanes.some((l) => l.calls)) {
		const sw = el('span', { class: 'sw' });
		sw.style.background = FG_COLS[0];
		legend.append(sw, 'function calls (function_graph): a row per depth, up to ' +
			D.fgDepth + ' levels');
		if (D.fgCut)
			legend.append(el('span', { id: 'fg-cut' }, ' (' + D.fgCut + (D.fgCut === 1 ?
				' call' : ' calls') + ' deeper than ' + D.fgDepth + ' levels not drawn)'));
	}
	if (taskLanes.some((l) => l.user.starts.length)) {
		const sw = el('span', { class: 'sw' });
		sw.style.background = USER_COL;
		legend.append(sw, 'user tracepoints (strip above the state)');
	}
	legend.append(' \u2014 CPU lanes (bar height: busy share of a pixel):');
	const key = el('span', { id: 'key' });
	for (const l of taskLanes.slice(0, PALETTE.length)) {
		const sw = el('span', { class: 'sw' });
		sw.style.background = colour(l.pid);
		key.append(sw, l.label);
	}
	const swo = el('span', { class: 'sw' });
	swo.style.background = OTHERS[0];
	key.append(swo, taskLanes.length ? 'other tasks' : 'tasks (greys)');
	legend.append(key, ' \u2014 ticks: events; running spans say their CPU');
	const inferred = [];
	if (D.inferredSwitchIns)
		inferred.push(D.inferredSwitchIns + (D.inferredSwitchIns === 1 ?
			' switch-in out of idle' : ' switch-ins out of idle'));
	if (D.missedSwitchOuts)
		inferred.push(D.missedSwitchOuts + (D.missedSwitchOuts === 1 ? ' switch-out' :
			' switch-outs'));
	if (inferred.length)
		legend.append(' \u2014 not recorded by the kernel, filled in as tracekit sched does: ' +
			inferred.join(', '));
	/* A ring buffer overflowed: say so where it is seen first, and what is drawn of it. */
	if (D.lostEvents)
		notice.append(el('span', { id: 'lost' }, 'The kernel lost ' + D.lostEvents +
			(D.lostEvents === 1 ? ' event' : ' events') + ' in ' + D.lostGaps +
			(D.lostGaps === 1 ? ' gap' : ' gaps') + ' (its ring buffer was full): what ran ' +
			'in a gap is not drawn; a slice ends at its CPU\u2019s last event before it. '));
	const wakers = el('div', { id: 'wakers' });
	const bottom = el('div', { id: 'bottom' });
	const listPane = el('div', { id: 'list-pane' });
	const searchRow = el('div', { id: 'search-row' });
	const search = el('input', { id: 'search', type: 'search',
		placeholder: 'search events: name, task, pid, field values (all words must match)' });
	const count = el('span', { id: 'count' });
	searchRow.append(search, count);
	const list = el('div', { id: 'list' });
	const spacer = el('div');
	list.append(spacer);
	listPane.append(searchRow, list);
	const details = el('div', { id: 'details' });
	details.append(el('h2', {}, 'Event'), el('div', {}, 'click an event in the list or the timeline'));
	bottom.append(listPane, details);
	/* The numbers behind the picture: what `tracekit sched` prints for this file. */
	const schedBox = el('details', { id: 'sched', open: '' });
	schedBox.append(el('summary', {}, 'Scheduling summary (tracekit sched)'),
		el('pre', {}, D.sched || ''));
	document.body.append(header, notice, toolbar, wrap, wakers, legend, bottom, schedBox);

	/* ---- formatting ---- */
	function fmtTs(t) {	/* trace-cmd's seconds with microseconds */
		const ns = t0 + t;
		const s = Math.floor(ns / 1e9);
		const us = Math.floor((ns - s * 1e9) / 1e3);
		return s + '.' + String(us).padStart(6, '0');
	}
	/*
	 * Time since the trace's first event in the unit of its own size ("+1.25 s",
	 * "+40 ms": never "+1250 ms"), with as many digits as the step needs; near 0, in
	 * the unit of scale (the view's width) so an axis reads "+0 ms", "+20 ms".
	 */
	function fmtRel(t, step, scale) {
		const units = [[1e9, 's'], [1e6, 'ms'], [1e3, 'us'], [1, 'ns']];
		const size = Math.max(Math.abs(t), Math.min(scale || step, 1e9), step);
		const [u, name] = units.find(([u]) => size >= u) || units[3];
		const digits = Math.max(0, Math.min(9, -Math.floor(Math.log10(step / u) + 1e-9)));
		return (t < 0 ? '\u2212' : '+') + (Math.abs(t) / u).toFixed(digits) + ' ' + name;
	}
	function fmtDur(ns) {
		if (ns >= 1e9)
			return (ns / 1e9).toFixed(3) + ' s';
		if (ns >= 1e6)
			return (ns / 1e6).toFixed(3) + ' ms';
		if (ns >= 1e3)
			return (ns / 1e3).toFixed(3) + ' us';
		return ns + ' ns';
	}
	/* prev_state as trace-cmd prints it: R, S, D, ... and "+" when preempted. */
	function stateLetters(v) {
		if (typeof v !== 'number')
			return '?';
		const low = v & 0xff;
		let s = low ? Array.from('SDTtXZPI').filter((c, k) => low & (1 << k)).join('|') : 'R';
		return v & 0x100 ? s + '+' : s;
	}
	/* An event's fields in trace-cmd's words where it has its own (sched plugin, syscalls). */
	const FORMATS = {
		sched_switch: (f) => f.prev_comm + ':' + f.prev_pid + ' [' + f.prev_prio + '] ' +
			stateLetters(f.prev_state) + ' ==> ' + f.next_comm + ':' + f.next_pid +
			' [' + f.next_prio + ']',
		sched_waking: (f) => f.comm + ':' + f.pid + ' [' + f.prio + '] CPU:' +
			String(f.target_cpu).padStart(3, '0'),
		sys_enter: (f) => 'NR ' + f.id + ' ' + sysName(f.id) + ' ' + f.args,
		sys_exit: (f) => 'NR ' + f.id + ' ' + sysName(f.id) + ' = ' + f.ret,
	};
	/* function_graph in the nested form of trace-cmd report (func() {, then } and the duration) */
	FORMATS.funcgraph_entry = (f) => ' '.repeat(2 * f.depth) + f.func + '() {';
	FORMATS.funcgraph_exit = (f) => ' '.repeat(2 * f.depth) + '} ' +
		fmtDur(f.rettime - f.calltime) + ' /* ' + f.func + ' */';
	FORMATS.function = (f) => f.ip + ' <-- ' + f.parent_ip;
	FORMATS.sched_wakeup = FORMATS.sched_wakeup_new = FORMATS.sched_waking;
	function fieldsOf(i) {
		const e = ev[i], ty = types[e[3]], f = {};
		if (ty)
			ty.fields.forEach((name, k) => { f[name] = e[4 + k]; });
		return f;
	}
	function evBody(i) {
		const e = ev[i], ty = types[e[3]];
		if (!ty)
			return '';
		const fmt = FORMATS[ty.short];
		if (fmt && (ty.short.startsWith('sched_') || ty.name.startsWith('raw_syscalls:') ||
			ty.name.startsWith('ftrace:')))
			return fmt(fieldsOf(i));
		const parts = [];
		for (let k = 0; k < ty.fields.length; k++)
			if (!ty.fields[k].startsWith('common_'))
				parts.push(ty.fields[k] + '=' + e[4 + k]);
		return parts.join(' ');
	}
	function evText(i) {
		const e = ev[i], ty = types[e[3]];
		return MACH.evPrefix(e[1]) + fmtTs(e[0]) + ' [' + String(MACH.cpuOf(e[1])).padStart(3, '0') +
			'] ' + (commOf(e[2]) + '-' + MACH.pidOf(e[2])).padStart(20) + ' ' +
			(ty ? ty.short : '?').padEnd(18) + ' ' + evBody(i);
	}

	/* ---- view state ---- */
	let v0 = 0, v1 = end, mark = [null, null], selected = -1, drag = null, hover = null;
	let selTask = null;	/* a task lane clicked: its wakers' arrows are drawn */
	let width = 800;
	const plotW = () => Math.max(width - LABEL_W, 10);
	const xOf = (t) => LABEL_W + (t - v0) / (v1 - v0) * plotW();
	const tOf = (x) => v0 + (x - LABEL_W) / plotW() * (v1 - v0);

	function setView(a, b) {
		const minSpan = 1000;
		if (b - a < minSpan) {
			const c = (a + b) / 2;
			a = c - minSpan / 2; b = c + minSpan / 2;
		}
		const span = Math.min(b - a, end * 1.2);
		a = Math.max(Math.min(a, end - span / 2), -span / 2);
		v0 = a; v1 = a + span;
		draw();
		syncList();
		followView();
	}
	function zoom(f, at) {
		const c = v0 + (v1 - v0) * at;
		setView(c - (c - v0) * f, c + (v1 - c) * f);
	}
	function pan(f) {
		const d = (v1 - v0) * f;
		setView(v0 + d, v1 + d);
	}

	/* ---- drawing ---- */
	const ctx = canvas.getContext('2d');
	function laneY(i) { return tops[i]; }

	/*
	 * How long the lane's spans (or only those of value val) cover [ta, tb): the
	 * spans k0..k1-1 overlap it, only the first and the last can stick out.
	 */
	function covered(lane, ta, tb, val) {
		const k0 = lowerBound(lane.ends, ta), k1 = lowerBound(lane.starts, tb);
		if (k1 <= k0)
			return 0;
		const c = val === undefined ? lane.cum : lane.byVal[val];
		const mine = (k) => val === undefined || lane.dv[k] === val;
		let d = c[k1] - c[k0];
		if (mine(k0) && lane.starts[k0] < ta)
			d -= ta - lane.starts[k0];
		if (mine(k1 - 1) && lane.ends[k1 - 1] > tb)
			d -= lane.ends[k1 - 1] - tb;
		return d;
	}
	/*
	 * Pixel column c (0: the plot's first) where spans start, end or are too short to
	 * see: on a CPU lane a bar as high as the column is busy, in the colour of the task
	 * at its middle; on a task lane a stack of each drawn value's share of the column
	 * (running at the bottom), so the lane's pixels add up to the task's time.
	 */
	function drawColumn(lane, c, y, h, colourOf) {
		const tcol = (v1 - v0) / plotW(), ta = v0 + c * tcol, tb = ta + tcol;
		let val, bh = h;
		if (lane.byVal) {
			let acc = 0, top = 0;
			for (const v of lane.order || Object.keys(lane.byVal).map(Number)) {
				if (!lane.byVal[v])
					continue;
				acc += covered(lane, ta, tb, v);
				const up = Math.round(h * Math.min(acc / tcol, 1)), col = colourOf(v);
				if (up > top && col) {
					ctx.fillStyle = col;
					ctx.fillRect(LABEL_W + c, y + h - up, 1, up - top);
				}
				top = up;
			}
			return;
		} else {
			const busy = covered(lane, ta, tb);
			let k = lowerBound(lane.ends, (ta + tb) / 2);
			if (k >= lane.starts.length || lane.starts[k] > tb)
				k = Math.max(lowerBound(lane.ends, ta), 0);
			val = lane.vals[Math.min(k, lane.vals.length - 1)];
			bh = Math.round(h * Math.min(busy / tcol, 1));
		}
		const col = val === undefined ? null : colourOf(val);
		if (col && bh > 0) {
			ctx.fillStyle = col;
			ctx.fillRect(LABEL_W + c, y + h - bh, 1, bh);
		}
	}
	/*
	 * A span's whole pixel columns are one rectangle; the columns where it starts or
	 * ends are drawn by drawColumn with whatever else shares them; then a binary search
	 * skips the spans that end in columns already drawn.
	 */
	function drawSpans(lane, y, h, colourOf, labelOf) {
		const n = lane.starts.length, tcol = (v1 - v0) / plotW();
		let i = lowerBound(lane.ends, v0), last = -2;
		while (i < n && lane.starts[i] <= v1) {
			const x0 = (lane.starts[i] - v0) / tcol, x1 = (lane.ends[i] - v0) / tcol;
			let c = Math.floor(x0);
			if (c > last && c < x0)
				drawColumn(lane, c, y, h, colourOf), last = c;
			const a = Math.max(Math.ceil(x0), last + 1), b = Math.floor(x1);
			const col = colourOf(lane.dv[i]);
			if (b > a && col) {
				ctx.fillStyle = col;
				ctx.fillRect(LABEL_W + a, y, b - a, h);
				if (labelOf && b - a >= 14)
					drawLabel(labelOf(i, b - a), LABEL_W + a, y, b - a, h, col);
			}
			if (b > a)
				last = b - 1;
			c = Math.floor(x1);
			if (c > last && c < x1)
				drawColumn(lane, c, y, h, colourOf), last = c;
			i = Math.max(i + 1, lowerBound(lane.ends, v0 + (last + 1) * tcol));
		}
	}
	/*
	 * name and pid in w pixels of the current font: the name cut with an ellipsis,
	 * the pid always whole (alone when nothing of the name fits), or '' when even
	 * the pid does not fit.  text is a string, or [name, pid].
	 */
	function fitName(text, w) {
		const [name, pid] = Array.isArray(text) ? text : [text, undefined];
		const tail = pid === undefined ? '' : ' ' + pid;
		const fits = (t) => ctx.measureText(t).width <= w;
		if (fits(name + tail))
			return name + tail;
		let lo = 0, hi = name.length - 1;	/* the longest cut of the name that fits */
		while (lo < hi) {
			const mid = (lo + hi + 1) >> 1;
			if (fits(name.slice(0, mid) + '\u2026' + tail))
				lo = mid;
			else
				hi = mid - 1;
		}
		if (lo > 0)
			return name.slice(0, lo) + '\u2026' + tail;
		return pid !== undefined && fits(String(pid)) ? String(pid) : '';
	}
	/* Text inside a span, when it fits: which task (CPU lanes), which CPU (running spans). */
	function drawLabel(text, x, y, w, h, bg) {
		if (!text)
			return;
		ctx.font = '10px system-ui, sans-serif';
		const t = fitName(text, w - 4);
		if (!t)
			return;
		const n = parseInt(bg.slice(1), 16);
		const light = 0.3 * (n >> 16) + 0.59 * ((n >> 8) & 255) + 0.11 * (n & 255) > 150;
		ctx.fillStyle = light ? '#1a202c' : '#fff';
		ctx.fillText(t, x + 2, y + h - 3);
	}
	/* Search hits: a mark above the lane at each (pixel column of) matching event. */
	function drawHits(times, y) {
		const px = plotW() / (v1 - v0);
		let i = lowerBound(times, v0);
		ctx.fillStyle = HIT_COL;
		while (i < times.length && times[i] <= v1) {
			const x = Math.floor(xOf(times[i]));
			ctx.beginPath();
			ctx.moveTo(x - 3, y);
			ctx.lineTo(x + 4, y);
			ctx.lineTo(x + 0.5, y + 5);
			ctx.fill();
			i = Math.max(lowerBound(times, v0 + (x - LABEL_W + 1) / px), i + 1);
		}
	}
	/* Sorted by start, possibly nested: from the first that can reach v0, one rect per column. */
	function drawUser(lane, y, h) {
		const n = lane.starts.length;
		let i = Math.max(lowerBound(lane.starts, v0 - lane.maxLen), 0), col = -1;
		ctx.fillStyle = USER_COL;
		for (; i < n && lane.starts[i] <= v1; i++) {
			if (lane.ends[i] < v0)
				continue;
			/* Whole pixels: a mark is one crisp column, not an antialiased smear. */
			const x0 = Math.floor(Math.max(xOf(lane.starts[i]), LABEL_W));
			const x1 = Math.ceil(xOf(lane.ends[i]));
			if (x1 - x0 <= 1 && x0 === col)
				continue;
			col = x0;
			ctx.fillRect(x0, y, Math.max(x1 - x0, 1), h);
		}
	}
	function drawTicks(lane, y) {
		const px = plotW() / (v1 - v0);
		let i = lowerBound(lane.evT, v0);
		const n = lane.evT.length;
		ctx.fillStyle = '#2d3748';
		while (i < n && lane.evT[i] <= v1) {
			const x = xOf(lane.evT[i]);
			ctx.fillRect(Math.floor(x), y, 1, TICK_H);
			i = Math.max(lowerBound(lane.evT, v0 + (Math.floor(x - LABEL_W) + 1) / px), i + 1);
		}
	}
	function drawOverview(cpu, y, h) {
		const bins = D.overview.busy[cpu], bw = D.overview.bin;
		ctx.fillStyle = '#4a5568';
		const k0 = Math.max(Math.floor(v0 / bw), 0), k1 = Math.min(Math.ceil(v1 / bw), bins.length);
		for (let k = k0; k < k1; k++) {
			if (!bins[k])
				continue;
			const x0 = xOf(k * bw), x1 = xOf((k + 1) * bw), bh = h * bins[k] / 1000;
			ctx.fillRect(Math.max(x0, LABEL_W), y + h - bh, Math.max(x1 - x0, 1), bh);
		}
	}
	/*
	 * Past the event cap (D.lod, view_lod.c): per CPU the busy share of each bin and
	 * the task that ran most of it, per task lane its main state, at a few levels.
	 * The level drawn is the coarsest with at least LOD_PER_COL bins a pixel column
	 * (the finest when zoomed in further): a column drawn from one or two bins that
	 * straddle it would be only as right as they are.  A column is drawn as the detailed part's
	 * are, from the bins it overlaps: a bar as high as they were busy in the colour
	 * of the task of the bin at its middle, or the share of each state stacked.
	 */
	function lodLevel() {
		const tcol = (v1 - v0) / plotW();
		let best = lod.levels[0];
		for (const L of lod.levels)
			if (L.bin * LOD_PER_COL <= tcol && L.n)
				best = L;
		return best;
	}
	function drawLod(lane, y, h) {
		if (!lod || v1 <= lod.from)
			return;
		const L = lodLevel(), tcol = (v1 - v0) / plotW(), w = plotW();
		const cpu = lane.kind === 'cpu' ? L.cpus[lane.cpu] : null;
		const st = lane.kind === 'task' ? L.tasks[lane.pid] : null;
		if (!cpu && !st)
			return;
		const sum = [0, 0, 0, 0, 0];
		for (let c = Math.max(Math.ceil((lod.from - v0) / tcol), 0); c < w; c++) {
			const fa = (v0 + c * tcol - lod.from) / L.bin, fb = fa + tcol / L.bin;
			if (fa >= L.n)
				break;
			const k0 = Math.floor(fa), k1 = Math.min(Math.ceil(fb), L.n);
			if (cpu) {
				let busy = 0;
				for (let k = k0; k < k1; k++)
					busy += cpu.busy[k] * (Math.min(fb, k + 1) - Math.max(fa, k));
				const bh = Math.round(h * Math.min(busy * L.bin / 1000 / tcol, 1));
				/* The task of the finest bin at the column's middle, as the detailed
				 * part draws the task at the middle. */
				const F = lod.levels[0], km = Math.floor((v0 + (c + 0.5) * tcol - lod.from) / F.bin);
				let pid = km < F.n ? F.cpus[lane.cpu].task[km] : 0;
				for (let k = k0; !pid && k < k1; k++)
					pid = cpu.task[k];
				if (bh > 0 && pid) {
					ctx.fillStyle = colour(pid);
					ctx.fillRect(LABEL_W + c, y + h - bh, 1, bh);
				}
				continue;
			}
			/* The share of each state, stacked as the detailed part's columns are. */
			sum.fill(0);
			for (let k = k0; k < k1; k++)
				lodShares(st[k], Math.min(fb, k + 1) - Math.max(fa, k), sum);
			const all = (sum[1] + sum[2] + sum[3] + sum[4]) || 1;
			let acc = 0, top = 0;
			for (let s = 1; s < 5; s++) {
				acc += sum[s];
				const up = Math.round(h * acc / all);
				if (up > top) {
					ctx.fillStyle = STATE_COL[s];
					ctx.fillRect(LABEL_W + c, y + h - up, 1, up - top);
				}
				top = up;
			}
		}
	}
	/* A task bin's state shares (ninths, a digit each: view_lod.c), times w, added to sum[1..4]. */
	function lodShares(v, w, sum) {
		for (let s = 4; s >= 1; s--, v = Math.floor(v / 10))
			sum[s] += (v % 10) * w;
	}
	/* The bin under t on a lane past the cap, for the tooltip. */
	function describeLod(lane, t) {
		const L = lodLevel(), k = Math.floor((t - lod.from) / L.bin);
		const per = ' (summary: ' + fmtDur(L.bin) + ' bins from ' + fmtTs(lod.from + k * L.bin) + ')';
		if (k < 0 || k >= L.n)
			return null;
		if (lane.kind === 'cpu') {
			const pid = L.cpus[lane.cpu].task[k];
			return lane.label + ' busy ' + (L.cpus[lane.cpu].busy[k] / 10) + '%' +
				(pid ? ', mostly ' + commOf(pid) + '-' + MACH.pidOf(pid) : '') + per;
		}
		const st = L.tasks[lane.pid];
		if (!st)
			return null;
		const sum = [0, 0, 0, 0, 0];
		lodShares(st[k], 1, sum);
		const parts = [];
		for (let s = 1; s < 5; s++)
			if (sum[s])
				parts.push(STATES[s] + ' ' + Math.round(sum[s] * 100 / 9) + '%');
		return lane.label + ': ' + (parts.join(', ') || 'not seen') + per;
	}
	function niceStep(span, px) {
		const raw = span / Math.max(px / 110, 1);
		const p = Math.pow(10, Math.floor(Math.log10(raw)));
		for (const m of [1, 2, 5, 10])
			if (m * p >= raw)
				return m * p;
		return 10 * p;
	}
	function drawAxis() {
		ctx.fillStyle = '#f7fafc';
		ctx.fillRect(0, 0, width, AXIS_H);
		ctx.fillStyle = '#2d3748';
		ctx.font = '11px ui-monospace, monospace';
		const step = niceStep(v1 - v0, plotW());
		const first = Math.ceil(v0 / step) * step;
		for (let t = first; t <= v1; t += step) {
			const x = xOf(t);
			ctx.fillRect(Math.floor(x), AXIS_H - 6, 1, 6);
			ctx.fillText(fmtRel(t, step, v1 - v0), x + 2, AXIS_H - 9);
		}
	}
	function draw() {
		const dpr = window.devicePixelRatio || 1;
		width = wrap.clientWidth || 800;
		const height = tops[lanes.length] + 4;
		canvas.width = width * dpr; canvas.height = height * dpr;
		canvas.style.height = height + 'px';
		ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
		ctx.clearRect(0, 0, width, height);
		drawAxis();
		ctx.save();
		ctx.beginPath();
		ctx.rect(LABEL_W, 0, width - LABEL_W, height);
		ctx.clip();
		lanes.forEach((lane, i) => {
			const y = laneY(i);
			if (i % 2)
				ctx.fillStyle = '#fbfbfb', ctx.fillRect(LABEL_W, y, width, laneH(lane));
			if (lane.kind === 'cpu') {
				drawSpans(lane, y + 2, LANE_H - TICK_H - 4, (pid) => pid ? colour(pid) : null,
					(k) => [commOf(lane.vals[k]), MACH.pidOf(lane.vals[k])]);
				drawLod(lane, y + 2, LANE_H - TICK_H - 4);
				drawTicks(lane, y + LANE_H - TICK_H - 1);
				if (hits)
					drawHits(hits.cpu[lane.cpu], y);
			} else if (lane.kind === 'task') {
				drawSpans(lane, y + 3, LANE_H - 10, (s) => CAUSES[s] ? CAUSES[s].col : null,
					(k, w) => lane.vals[k] === 1 && lane.cpus[k] >= 0 ?
						(w >= 40 ? 'CPU ' : '') + lane.cpus[k] : lane.why[k].label || null);
				drawSpans(lane.sys, y + LANE_H - 6, 4, () => SYS_COL);
				drawLod(lane, y + 3, LANE_H - 10);
				drawUser(lane.user, y, 3);
				if (hits && hits.pid.has(lane.pid))
					drawHits(hits.pid.get(lane.pid), y);
			} else if (lane.kind === 'calls') {
				lane.rows.forEach((row, d) => drawSpans(row, y + 2 + d * FG_ROW_H, FG_ROW_H - 1,
					fnColour, (k) => fnName(row.vals[k])));
			} else {
				drawOverview(lane.cpu, y + 2, LANE_H - 4);
			}
		});
		if (drag && drag.moved && !drag.pan) {
			ctx.fillStyle = 'rgba(49,130,206,.2)';
			ctx.fillRect(Math.min(drag.x0, drag.x1), 0, Math.abs(drag.x1 - drag.x0), height);
		}
		mark.forEach((m, k) => {
			if (m === null)
				return;
			ctx.fillStyle = k ? '#805ad5' : '#d53f8c';
			ctx.fillRect(Math.floor(xOf(m)), 0, 1, height);
		});
		if (selected >= 0) {
			ctx.strokeStyle = '#000';
			const li = lanes.indexOf(cpuLanes[ev[selected][1]]);
			const x = Math.floor(xOf(ev[selected][0])) + 0.5;
			if (li >= 0)
				ctx.strokeRect(x - 2, laneY(li), 4, LANE_H);
		}
		wakers.textContent = '';
		wakers.dataset.n = '';
		if (selTask)
			drawWakers(selTask);
		if (hover && hover.why)
			drawWhy(hover.why);
		ctx.restore();
		ctx.fillStyle = '#edf2f7';
		ctx.fillRect(0, AXIS_H, LABEL_W, height);
		ctx.font = '12px system-ui, sans-serif';
		lanes.forEach((lane, i) => {
			const on = pinned.includes(lane), pre = on ? '\u25b4 ' : '';
			if (selTask && lane === selTask) {
				ctx.fillStyle = '#bee3f8';
				ctx.fillRect(0, laneY(i), LABEL_W, laneH(lane));
			}
			/* Up to the x button, the pid whole: "contention-w\u2026 11431". */
			const room = LABEL_W - CLOSE_W - 6 - 4 - ctx.measureText(pre).width;
			ctx.fillStyle = on ? '#2b6cb0' : '#1a202c';
			ctx.fillText(pre + fitName(lane.comm !== undefined ? [MACH.commOf(lane.pid, lane.comm),
				MACH.pidOf(lane.pid)] : lane.label,
				room), 6, laneY(i) + 15);
			ctx.fillStyle = '#a0aec0';
			ctx.fillText('\u00d7', LABEL_W - 13, laneY(i) + 15);
		});
		/* Short enough for a 760 px window: where the view starts and how wide it is. */
		range.textContent = fmtRel(v0, (v1 - v0) / 100, v1 - v0) + ', ' + fmtDur(v1 - v0) + ' wide';
		range.title = fmtRel(v0, (v1 - v0) / 1000, v1 - v0) + ' \u2013 ' +
			fmtRel(v1, (v1 - v0) / 1000, v1 - v0) + '\n' + fmtTs(v0) + ' \u2013 ' + fmtTs(v1) +
			' (trace clock)';
		if (truncated) {
			const L = lod && v1 > lod.from ? lodLevel() : null;
			lodStatus.textContent = L ? 'In view past ' + fmtTs(lod.from) + ': a summary at ' +
				fmtDur(L.bin) + ' per bin (levels of detail: busy share and the task that ran ' +
				'most of each bin; a task lane\'s main state). ' : '';
			lodStatus.dataset.bin = L ? L.bin : '';
			windowCmd.textContent = windowCommand(v0, v1);
			windowCmd.dataset.detailed = v1 <= detailEnd ? '1' : '0';
		}
		const [a, b] = mark;
		markers.textContent = (a !== null ? 'A ' + fmtTs(a) : '') +
			(b !== null ? '  B ' + fmtTs(b) : '') +
			(a !== null && b !== null ? '  \u0394 ' + fmtDur(Math.abs(b - a)) : '');
	}

	/* ---- picking ---- */
	function laneAt(y) {
		const i = lowerBound(tops, y + 1) - 1;
		return i >= 0 && i < lanes.length ? lanes[i] : null;
	}
	/* The call under (x, y) on a calls lane: its row (depth) and index there, or null. */
	function callAt(lane, x, y) {
		const d = Math.floor((y - laneY(lanes.indexOf(lane)) - 2) / FG_ROW_H);
		const row = lane.rows[d];
		const k = row ? spanAt(row, tOf(x)) : -1;
		return k < 0 ? null : { depth: d, row: row, k: k };
	}
	/* A call's own time: its duration less that of the calls it made (the row below, inside it). */
	function selfTime(lane, c) {
		const a = c.row.starts[c.k], b = c.row.ends[c.k], below = lane.rows[c.depth + 1];
		let inner = 0;
		for (let i = below ? lowerBound(below.starts, a) : 0; below && i < below.starts.length &&
			below.starts[i] < b; i++)
			inner += below.durs[i];
		return Math.max(c.row.durs[c.k] - inner, 0);
	}
	function describeCall(lane, x, y) {
		const c = callAt(lane, x, y);
		if (!c)
			return fmtTs(tOf(x)) + '  ' + commOf(lane.pid) + ' ' + MACH.pidOf(lane.pid) + ': no call here';
		const a = c.row.starts[c.k], b = c.row.ends[c.k], dur = Math.max(b - a, 1);
		const kd = c.row.durs[c.k];
		/* The slice spans entry to exit on the trace clock, which may run apart from the kernel's. */
		const apart = Math.abs(dur - kd) > Math.max(1000, kd / 100) ?
			'\n' + fmtDur(b - a) + ' on the trace clock (' + D.clock + ')' : '';
		return fnName(c.row.vals[c.k]) + '()  ' + fmtDur(kd) + '\ndepth ' + c.depth +
			', self ' + fmtDur(selfTime(lane, c)) + ', ' + commOf(lane.pid) + ' ' + MACH.pidOf(lane.pid) +
			'\n' + fmtRel(a, dur / 1000, dur) + ' \u2013 ' + fmtRel(b, dur / 1000, dur) + '  (' +
			fmtTs(a) + ' \u2013 ' + fmtTs(b) + ')' + apart;
	}
	function nearestEvent(lane, x) {
		if (!lane || !lane.evT || !lane.evT.length)
			return -1;
		const t = tOf(x);
		let i = lowerBound(lane.evT, t);
		if (i > 0 && (i === lane.evT.length || t - lane.evT[i - 1] < lane.evT[i] - t))
			i--;
		return Math.abs(xOf(lane.evT[i]) - x) <= 6 ? lane.evIdx[i] : -1;
	}
	function spanAt(lane, t) {
		if (!lane || !lane.starts)
			return -1;
		const i = lowerBound(lane.ends, t);
		return i < lane.starts.length && lane.starts[i] <= t ? i : -1;
	}
	/*
	 * The tasks other than self that held cpu over [a, b), longest first:
	 * "cc1:14483 0.8 ms, ...".  A slice that only touches the wait (0 ns) held nothing.
	 */
	function holders(cpu, a, b, self) {
		const l = cpuLanes[cpu], by = new Map();
		if (!l)
			return '';
		for (let k = lowerBound(l.ends, a); k < l.starts.length && l.starts[k] < b; k++) {
			const d = Math.min(l.ends[k], b) - Math.max(l.starts[k], a);
			if (d <= 0 || l.vals[k] === self)
				continue;
			by.set(l.vals[k], (by.get(l.vals[k]) || 0) + d);
		}
		const top = Array.from(by).sort((p, q) => q[1] - p[1]);
		return top.slice(0, 3).map(([pid, d]) => commOf(pid) + ':' + MACH.pidOf(pid) + ' ' + fmtDur(d))
			.join(', ') + (top.length > 3 ? ' and ' + (top.length - 3) + ' more' : '');
	}
	/*
	 * Who made wakeup i (the page's wakeups carry it after their fields, from sched's
	 * context flags and timer/irq events): 'task' is the event's task; a timer or an
	 * interrupt only happened to hit that task; 'idle', a wakeup run by the idle loop.
	 */
	const WAKER_TEXT = { timer: 'a timer', hardirq: 'a hardware interrupt',
		softirq: 'a soft interrupt', idle: 'the idle task' };
	const WAKER_MARK = { timer: 'T', hardirq: 'H', softirq: 'S', idle: 'I' };
	function wakeKind(i) {
		const e = ev[i], ty = types[e[3]], k = ty ? e[4 + ty.fields.length] : undefined;
		return WAKER_TEXT[k] ? k : 'task';
	}
	function wakerText(i) {
		const e = ev[i], k = wakeKind(i);
		if (k === 'task')
			return commOf(e[2]) + ':' + MACH.pidOf(e[2]) + ' on CPU ' + MACH.cpuOf(e[1]);
		return WAKER_TEXT[k] + ' on CPU ' + e[1] + (k !== 'idle' && e[2] ?
			' (it interrupted ' + commOf(e[2]) + ':' + MACH.pidOf(e[2]) + ', not its waker)' : '');
	}
	/* The wakeup that made pid runnable at t: its event index, or -1 (a preemption). */
	function wakeupAt(pid, t) {
		for (let i = lowerBound(evT, t); i < ev.length && ev[i][0] === t; i++) {
			const ty = types[ev[i][3]];
			if (ty && /^sched_wak(ing|eup|eup_new)$/.test(ty.short) && fieldsOf(i).pid === pid)
				return i;
		}
		return -1;
	}
	/*
	 * Why a task's span s was not running: for a runnable span, who woke it (the
	 * wakeup event's task and CPU) and who held the CPU it then got; for a sleep, the
	 * syscall it slept in and, for a futex, what sched knows of the word.
	 */
	function why(lane, s) {
		const a = lane.starts[s], b = lane.ends[s], st = lane.vals[s];
		if (st === 2) {
			const next = s + 1 < lane.starts.length && lane.vals[s + 1] === 1 ? lane.cpus[s + 1] : -1;
			const w = wakeupAt(lane.pid, a);
			const text = (w >= 0 ? 'woken by ' + wakerText(w) :
				'preempted (or placed) with no wakeup seen') +
				(next >= 0 ? '\nthen ran on CPU ' + next + ', held meanwhile by ' +
				(holders(next, a, b, lane.pid) || 'nobody (waking up)') : '');
			return { text: text, wake: w, from: a, to: next >= 0 ? b : null, lane: lane };
		}
		if (st === 3 || st === 4) {
			const k = spanAt(lane.sys, a + 1);
			if (k < 0)
				return { text: 'not in a recorded syscall' };
			const name = sysName(lane.sys.vals[k]), word = lane.sys.args[k];
			const known = word ? (D.futexNames || {})[word] : null;
			return { text: 'in ' + name + '()' + (name === 'futex' && word ? ' on 0x' +
				word.toString(16) + (known ? ': ' + known : '') : '') };
		}
		return null;
	}
	/*
	 * A runnable span's story drawn: the wakeup as an arrow from the waking task (a
	 * timer's or an interrupt's as a marker on the woken lane: the task it hit is
	 * innocent), the latency as a bracket.
	 */
	function drawWhy(w) {
		if (!w.lane || w.from === undefined)
			return;
		const li = lanes.indexOf(w.lane);
		if (li < 0)
			return;
		const y1 = laneY(li) + LANE_H / 2, xa = xOf(w.from);
		ctx.strokeStyle = ctx.fillStyle = ARROW_COL;
		ctx.lineWidth = 2;
		const kind = w.wake >= 0 ? wakeKind(w.wake) : null;
		if (kind && kind !== 'task') {
			ctx.save();
			ctx.beginPath();
			ctx.arc(xa, y1, 6, 0, 2 * Math.PI);
			ctx.fill();
			ctx.fillStyle = '#ffffff';
			ctx.font = 'bold 9px sans-serif';
			ctx.textAlign = 'center';
			ctx.fillText(WAKER_MARK[kind], xa, y1 + 3);
			ctx.restore();
		} else if (w.wake >= 0) {
			const src = lanes.indexOf(taskLaneOf.get(ev[w.wake][2]));
			const y0 = laneY(src >= 0 ? src : Math.max(lanes.indexOf(cpuLanes[ev[w.wake][1]]), 0)) +
				LANE_H / 2;
			ctx.beginPath();
			ctx.moveTo(xa, y0);
			ctx.lineTo(xa, y1);
			ctx.stroke();
			const d = y1 > y0 ? -1 : 1;
			ctx.beginPath();
			ctx.moveTo(xa, y1);
			ctx.lineTo(xa - 4, y1 + 7 * d);
			ctx.lineTo(xa + 4, y1 + 7 * d);
			ctx.fill();
		}
		if (w.to !== null) {
			const xb = xOf(w.to), y = laneY(li) + LANE_H - 2;
			ctx.beginPath();
			ctx.moveTo(xa, y - 5); ctx.lineTo(xa, y); ctx.lineTo(xb, y); ctx.lineTo(xb, y - 5);
			ctx.stroke();
		}
		ctx.lineWidth = 1;
	}
	/* What the task was doing over span s, and why: its cause first ("sleeping on the lock `m`"). */
	function causeText(lane, s) {
		const c = lane.why[s], st = lane.vals[s];
		const slept = st === 4 ? 'blocked (D)' : 'sleeping';
		const inCall = c.call ? ' in ' + c.call + '()' : '';
		switch (c.cat) {
		case 1:
			return 'running' + (lane.cpus[s] >= 0 ? ' on CPU ' + lane.cpus[s] : '');
		case 2:
			return 'runnable (waiting for a CPU)';
		case C_LOCK:
			return slept + ' on a lock: ' + c.label;
		case C_JOIN:
			return slept + ' in a join';
		case C_TIMER:
			return slept + ' on a timer' + inCall;
		case C_IO:
			return slept + ' on I/O' + inCall;
		}
		return slept + (c.call ? inCall : ' (no syscall recorded)');
	}
	/* A column holding several states: each one's share of it ("running 12%, lock 60%"). */
	function columnShares(lane, x) {
		const tcol = (v1 - v0) / plotW(), ta = v0 + Math.floor(x - LABEL_W) * tcol;
		const parts = [];
		for (const v of CAUSE_ORDER) {
			const d = lane.byVal[v] ? covered(lane, ta, ta + tcol, v) : 0;
			if (d > 0)
				parts.push(CAUSES[v].name.replace(/ \(.*/, '') + ' ' +
					Math.round(100 * d / tcol) + '%');
		}
		return parts.length > 1 ? 'this pixel (' + fmtDur(Math.round(tcol)) + '): ' +
			parts.join(', ') : '';
	}
	/*
	 * The tooltip of a lane at x: what the lane's task (or CPU) was doing there and
	 * why, at any zoom; then the nearest event, if one is within 6 px.
	 */
	function describe(lane, x, y) {
		if (lane.kind === 'calls')
			return describeCall(lane, x, y);
		const e = nearestEvent(lane, x), evLine = e >= 0 ? '\nevent: ' + evText(e) : '';
		const t = tOf(x), s = spanAt(lane, t);
		if (lod && t >= lod.from && (lane.kind === 'cpu' || lane.kind === 'task')) {
			const d = describeLod(lane, t);
			if (d)
				return d;
		}
		if (lane.kind === 'ov') {
			const k = Math.floor(t / D.overview.bin);
			return 'CPU ' + lane.cpu + ' busy ' + ((D.overview.busy[lane.cpu][k] || 0) / 10) + '% at ' + fmtTs(t);
		}
		const sc = lane.sys ? spanAt(lane.sys, t) : -1;
		const inSys = sc < 0 ? '' : '\nin ' + sysName(lane.sys.vals[sc]) + '() ' +
			fmtTs(lane.sys.starts[sc]) + ' \u2013 ' + fmtTs(lane.sys.ends[sc]) + ' (' +
			fmtDur(lane.sys.ends[sc] - lane.sys.starts[sc]) + ')';
		if (s < 0)
			return lane.label + ': ' + (lane.kind === 'cpu' ? 'idle' : 'not seen') + ' at ' +
				fmtTs(t) + inSys + evLine;
		const what = lane.kind === 'cpu' ? commOf(lane.vals[s]) + '-' + MACH.pidOf(lane.vals[s]) :
			causeText(lane, s);
		const w = lane.kind === 'task' ? why(lane, s) : null;
		const col = lane.kind === 'task' ? columnShares(lane, x) : '';
		const dur = Math.max(lane.ends[s] - lane.starts[s], 1);
		return lane.label + ': ' + what + ' ' + fmtDur(lane.ends[s] - lane.starts[s]) + '\n' +
			fmtRel(lane.starts[s], dur / 1000, dur) + ' \u2013 ' +
			fmtRel(lane.ends[s], dur / 1000, dur) + '  (' +
			fmtTs(lane.starts[s]) + ' \u2013 ' + fmtTs(lane.ends[s]) + ')' +
			(w ? '\n' + w.text : '') + (col ? '\n' + col : '') + inSys + evLine;
	}
	/*
	 * A selected task's wakeups in view: an arrow from each waker (its lane, or the
	 * CPU lane the wakeup ran on) to the task, one per pixel column; and who woke it,
	 * counted, under the timeline.
	 */
	function drawWakers(lane) {
		const li = lanes.indexOf(lane), tcol = (v1 - v0) / plotW(), by = new Map();
		let n = 0;
		for (let i = lowerBound(lane.ends, v0), last = -1; li >= 0 && i < lane.starts.length &&
			lane.starts[i] <= v1; i++) {
			if (lane.vals[i] !== 2 || lane.starts[i] < v0)
				continue;
			const w = wakeupAt(lane.pid, lane.starts[i]);
			if (w < 0)
				continue;
			n++;
			const kind = wakeKind(w);
			const who = kind !== 'task' ? kind : ev[w][2] ? commOf(ev[w][2]) + ':' + MACH.pidOf(ev[w][2]) :
				'CPU ' + ev[w][1] + ' idle';
			by.set(who, (by.get(who) || 0) + 1);
			const c = Math.floor((lane.starts[i] - v0) / tcol);
			if (c !== last)
				drawWhy({ lane: lane, wake: w, from: lane.starts[i], to: null });
			last = c;
		}
		const top = Array.from(by).sort((p, q) => q[1] - p[1]);
		wakers.textContent = lane.label + ' selected: ' + n + (n === 1 ? ' wakeup' : ' wakeups') +
			' in view' + (n ? ', by ' + top.slice(0, 6).map(([k, c]) => k + ' \u00d7' + c)
				.join(', ') + (top.length > 6 ? ' and ' + (top.length - 6) + ' more' : '') : '') +
			' (click another lane to clear)';
		wakers.dataset.n = n;
	}

	/* ---- details and list ---- */
	function showDetails(i) {
		details.replaceChildren();
		const e = ev[i], ty = types[e[3]];
		details.append(el('h2', {}, (ty ? ty.name : 'unknown event') + ' #' + i));
		const tab = el('table', { id: 'fields' });
		const row = (k, val) => {
			const tr = el('tr');
			tr.append(el('td', {}, k), el('td', {}, String(val)));
			tab.append(tr);
		};
		row('time', fmtTs(e[0]));
		row('cpu', MACH.evPrefix(e[1]) + MACH.cpuOf(e[1]));
		row('task', commOf(e[2]) + '-' + MACH.pidOf(e[2]));
		if (ty)
			ty.fields.forEach((f, k) => { if (!f.startsWith('common_')) row(f, e[4 + k]); });
		details.append(tab);
	}
	function select(i, scroll) {
		selected = i;
		showDetails(i);
		const t = ev[i][0];
		if (t < v0 || t > v1) {
			const h = (v1 - v0) / 2;
			v0 = t - h; v1 = t + h;
		}
		draw();
		if (scroll) {
			const r = lowerBound(filtered, i);
			if (filtered[r] === i)
				list.scrollTop = Math.max(r * ROW_H - list.clientHeight / 2, 0);
		}
		renderList();
	}

	let filtered = Int32Array.from(ev.keys()), hits = null;
	function applySearch() {
		const words = search.value.toLowerCase().split(/\s+/).filter((w) => w);
		if (!words.length) {
			filtered = Int32Array.from(ev.keys());
		} else {
			const out = [];
			for (let i = 0; i < ev.length; i++) {
				const s = evText(i).toLowerCase();
				if (words.every((w) => s.includes(w)))
					out.push(i);
			}
			filtered = Int32Array.from(out);
		}
		/* The hits on the timeline: per CPU lane and per task lane. */
		hits = null;
		if (words.length) {
			const cpu = cpuLanes.map(() => []), pid = new Map();
			for (const i of filtered) {
				const e = ev[i];
				if (cpu[e[1]])
					cpu[e[1]].push(e[0]);
				if (!pid.has(e[2]))
					pid.set(e[2], []);
				pid.get(e[2]).push(e[0]);
			}
			hits = { cpu: cpu.map((a) => Float64Array.from(a)), pid: new Map() };
			for (const [k, a] of pid)
				hits.pid.set(k, Float64Array.from(a));
		}
		draw();
		count.textContent = filtered.length + ' of ' + ev.length + ' events';
		count.dataset.n = filtered.length;
		spacer.style.height = filtered.length * ROW_H + 'px';
		list.scrollTop = 0;
		renderList();
	}
	function renderList() {
		const first = Math.floor(list.scrollTop / ROW_H);
		const n = Math.ceil((list.clientHeight || 300) / ROW_H) + 1;
		for (const r of Array.from(list.querySelectorAll('.row')))
			r.remove();
		for (let r = first; r < Math.min(first + n, filtered.length); r++) {
			const i = filtered[r];
			const d = el('div', { class: 'row' + (i === selected ? ' sel' : '') }, evText(i));
			d.style.top = r * ROW_H + 'px';
			d.dataset.i = i;
			list.append(d);
		}
	}
	/* The list follows the timeline: after a zoom or pan it shows the first event in view. */
	function syncList() {
		let lo = 0, hi = filtered.length;
		while (lo < hi) {
			const mid = (lo + hi) >> 1;
			if (ev[filtered[mid]][0] < v0)
				lo = mid + 1;
			else
				hi = mid;
		}
		list.scrollTop = lo * ROW_H;
		renderList();
	}

	/* ---- input ---- */
	canvas.addEventListener('wheel', (e) => {
		e.preventDefault();
		if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY))
			return pan((e.deltaX || e.deltaY) > 0 ? 0.1 : -0.1);
		const at = Math.min(Math.max((e.offsetX - LABEL_W) / plotW(), 0), 1);
		zoom(e.deltaY > 0 ? 1.25 : 0.8, at);
	}, { passive: false });
	canvas.addEventListener('mousedown', (e) => {
		drag = { x0: e.offsetX, x1: e.offsetX, v0: v0, v1: v1, shift: e.shiftKey,
			pan: e.shiftKey || e.button === 1,
			moved: false };
	});
	canvas.addEventListener('mousemove', (e) => {
		if (drag) {
			drag.x1 = e.offsetX;
			drag.moved = drag.moved || Math.abs(drag.x1 - drag.x0) > 3;
			if (drag.pan && drag.moved) {
				const d = (drag.x0 - drag.x1) / plotW() * (drag.v1 - drag.v0);
				v0 = drag.v0 + d; v1 = drag.v1 + d;
			}
			draw();
			return;
		}
		const lane = laneAt(e.offsetY), axis = e.offsetY < AXIS_H && e.offsetX >= LABEL_W;
		const was = hover;
		hover = null;
		if ((!lane && !axis) || e.offsetX < LABEL_W) {
			tip.style.display = 'none';
			if (was)
				draw();
			return;
		}
		if (axis) {
			const t = tOf(e.offsetX);
			tip.textContent = fmtRel(t, (v1 - v0) / 1000, v1 - v0) + ' after the first event\n' +
				fmtTs(t) +
				' on the trace clock (' + D.clock + ')';
		} else {
			tip.textContent = describe(lane, e.offsetX, e.offsetY);
			const s = lane.kind === 'task' ? spanAt(lane, tOf(e.offsetX)) : -1;
			hover = s >= 0 ? { lane: lane, span: s, why: why(lane, s) } : null;
		}
		if ((was && was.why) || (hover && hover.why))
			draw();
		tip.style.display = 'block';
		tip.style.left = Math.max(Math.min(e.offsetX + 12, width - tip.offsetWidth - 4), 0) + 'px';
		tip.style.top = e.offsetY + 14 + 'px';
	});
	canvas.addEventListener('mouseleave', () => {
		tip.style.display = 'none';
		if (hover) {
			hover = null;
			draw();
		}
	});
	window.addEventListener('mouseup', (e) => {
		if (!drag)
			return;
		const d = drag;
		drag = null;
		if (d.moved && d.pan) {
			syncList();
			followView();
		} else if (d.moved && Math.abs(d.x1 - d.x0) > 3) {
			setView(tOf(Math.min(d.x0, d.x1)), tOf(Math.max(d.x0, d.x1)));
		} else if (e.target === canvas && d.x0 < LABEL_W) {
			labelClick(laneAt(e.offsetY), d.x0);
		} else if (e.target === canvas && d.x0 >= LABEL_W) {
			mark[d.shift ? 1 : 0] = tOf(d.x0);
			const at = laneAt(e.offsetY);
			/* A task lane clicked: its task selected, its wakers' arrows drawn. */
			selTask = at && at.kind === 'task' ? at : null;
			const i = nearestEvent(at, d.x0);
			if (i >= 0)
				select(i, true);
			else
				draw();
		}
	});
	canvas.addEventListener('keydown', (e) => {
		const k = { '+': () => zoom(0.5, 0.5), '=': () => zoom(0.5, 0.5), '-': () => zoom(2, 0.5),
			'ArrowLeft': () => pan(-0.25), 'ArrowRight': () => pan(0.25),
			'0': () => setView(0, end), 'Escape': () => { selTask = null; draw(); } }[e.key];
		if (k) {
			e.preventDefault();
			k();
		}
	});
	list.addEventListener('scroll', renderList);
	list.addEventListener('click', (e) => {
		const r = e.target.closest('.row');
		if (r)
			select(Number(r.dataset.i), false);
	});
	let timer = 0;
	search.addEventListener('input', () => {
		clearTimeout(timer);
		timer = setTimeout(applySearch, ev.length > 100000 ? 300 : 50);
	});
	window.addEventListener('resize', draw);
	/* A lane's name: click pins it on top (again: unpins); its x hides it. */
	function labelClick(lane, x) {
		if (!lane)
			return;
		const k = pinned.indexOf(lane);
		if (x >= LABEL_W - CLOSE_W) {
			hidden.add(lane);
			if (k >= 0)
				pinned.splice(k, 1);
		} else if (k >= 0) {
			pinned.splice(k, 1);
		} else {
			pinned.push(lane);
		}
		layout();
		draw();
	}
	/* "comm pid", a pid, or a hidden lane's name: that lane is shown (a task's at the end). */
	function showLane(text) {
		text = text.trim();
		const back = allLanes.find((l) => hidden.has(l) && l.label === text);
		const m = /(\d+)$/.exec(text), pid = m ? Number(m[1]) : NaN;
		if (back) {
			hidden.delete(back);
		} else if (D.taskSpans[pid] || evByPid.has(pid)) {
			const lane = taskLane(pid);
			hidden.delete(lane);
			if (!allLanes.includes(lane))
				allLanes.push(lane);
			if (lane.calls && !allLanes.includes(lane.calls))
				allLanes.push(lane.calls);
		} else {
			return false;
		}
		layout();
		draw();
		return true;
	}
	addLane.addEventListener('change', () => {
		if (showLane(addLane.value))
			addLane.value = '';
	});

	/* For tests and the console: the state, and the same actions the mouse has. */
	window.tracekitView = {
		data: D, get lanes() {
			return lanes.map((l, i) => ({ kind: l.kind, label: l.label, pid: l.pid, cpu: l.cpu,
				top: tops[i], h: laneH(l), rows: l.rows ? l.rows.length : undefined, n: l.n,
				from: l.starts && l.starts.length ? l.starts[0] : undefined,
				to: l.ends && l.ends.length ? l.ends[l.ends.length - 1] : undefined }));
		},
		view: () => [v0, v1], zoom: zoom, pan: pan, setView: setView, select: (i) => select(i, true),
		served: served ? { window: served.window, starts: served.starts } : null,
		selectedTask: () => selTask ? selTask.pid : null,
		selected: () => selected, xOf: xOf, tOf: tOf, laneY: laneY, showLane: showLane,
		fnColour: fnColour,
		search: (q) => { search.value = q; applySearch(); },
		/* where a CPU lane's spans are drawn, below laneY(i) */
		geometry: { labelW: LABEL_W, get plotW() { return plotW(); }, bandTop: 2, bandH: LANE_H - TICK_H - 4, fgRowTop: 2,
			fgRowH: FG_ROW_H },
	};
	/*
	 * Served (view --serve): the view decides the page.  When it holds few enough
	 * chunks and they are not the ones loaded, or it leaves them, or it is too wide
	 * for a window, the page goes to the server's page for it, the view kept in the
	 * address's #fragment (v0,v1 in ns after the first event).
	 */
	let goTimer = 0;
	function followView() {
		if (!served)
			return;
		clearTimeout(goTimer);
		goTimer = setTimeout(() => {
			const S = served.starts, W = served.window, n = served.maxChunks;
			const at = (t) => Math.max(lowerBound(S, t + 1) - 1, 0);
			const ka = at(Math.max(v0, 0)), kb = at(Math.min(v1, end));
			const token = new URLSearchParams(location.search).get('t') || '';
			let url = null;
			if (kb - ka < n) {
				if (!W || ka < W[0] || kb > W[1]) {
					let a = Math.max(ka - ((n - 1 - (kb - ka)) >> 1), 0);
					const b = Math.min(a + n - 1, S.length - 1);
					a = Math.max(b - n + 1, 0);
					url = '/w?t=' + token + '&a=' + a + '&b=' + b;
				}
			} else if (W) {
				url = '/?t=' + token;
			}
			if (url) {
				document.body.dataset.ready = '';
				location.assign(url + '#' + Math.round(v0) + ',' + Math.round(v1));
			}
		}, 250);
	}
	if (served) {
		const m = /^#(-?\d+),(-?\d+)$/.exec(location.hash);
		if (m) {
			v0 = Number(m[1]);
			v1 = Number(m[2]);
		}
	}
	applySearch();
	draw();
	syncList();
	document.body.dataset.ready = '1';
})();
