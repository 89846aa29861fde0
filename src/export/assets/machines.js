/*
 * tracekit view: machine groups, for a page made of several files (a host's and its
 * guests', view -i host.dat -i guest.dat).  view.c numbers every machine's CPUs one
 * after the other and shifts each machine's pids by its pidBase (D.machines), so one
 * timeline holds them all; here the lanes get their machine's names back, and are
 * ordered by machine: the host's CPUs, then each host thread that runs a guest's vCPU
 * followed by that vCPU's lane (D.vcpus), so time the vCPU's thread was off its host CPU
 * shows right above what the guest believed ran, then each machine's tasks.
 *
 * tkMachines(D) gives the hooks timeline.js calls; for one file they change nothing.  Elsewhere
 * (tooltips) a guest's pid shows as the page holds it: its machine's pidBase plus its own.
 */
'use strict';
function tkMachines(D) {
	const M = D.machines || null;
	if (!M || M.length < 2)
		return { cpuLabel: (c) => 'CPU ' + c, taskLabel: (pid, comm) => comm + ' ' + pid,
			order: (lanes) => lanes, machineOf: () => null, evPrefix: () => '',
			cpuOf: (c) => c, pidOf: (pid) => pid, commOf: (pid, comm) => comm };
	const ofCpu = (c) => M.find((m) => c >= m.cpu0 && c < m.cpu0 + m.ncpus);
	const ofPid = (pid) => pid > 0 ? M[Math.floor(pid / M[1].pidBase)] || null : null;
	const vcpuOfCpu = new Map((D.vcpus || []).map((v) => [v.cpu, v]));
	function cpuLabel(c) {
		const m = ofCpu(c);
		if (!m)
			return 'CPU ' + c;
		return m.name + (m.host >= 0 ? ' vCPU ' : ' CPU ') + (c - m.cpu0);
	}
	function taskLabel(pid, comm) {
		const m = ofPid(pid);
		return (m ? m.name + ': ' : '') + comm + ' ' + (m ? pid - m.pidBase : pid);
	}
	/* Machine by machine; a vCPU's lane right under the host thread that runs it. */
	function order(lanes) {
		const placed = new Set(), out = [];
		const put = (l) => { if (l && !placed.has(l)) { placed.add(l); out.push(l); } };
		const group = (l) => l.kind === 'cpu' || l.kind === 'ov' ? ofCpu(l.cpu) :
			ofPid(l.pid);
		const taskOf = new Map(lanes.filter((l) => l.kind === 'task').map((l) => [l.pid, l]));
		const cpuOf = new Map(lanes.filter((l) => l.kind === 'cpu').map((l) => [l.cpu, l]));
		M.forEach((m) => {
			for (const l of lanes)
				if ((l.kind === 'cpu' || l.kind === 'ov') && group(l) === m &&
				    !vcpuOfCpu.has(l.cpu))
					put(l);
			for (const v of D.vcpus || []) {
				const t = taskOf.get(v.hostPid);
				if (M[v.machine] && M[v.machine].host >= 0 && M[M[v.machine].host] === m) {
					put(t);
					put(cpuOf.get(v.cpu));
				}
			}
			for (const l of lanes)
				if (group(l) === m)
					put(l);
		});
		lanes.forEach(put);
		return out;
	}
	const named = (m) => m ? m.name + ': ' : '';
	return { cpuLabel: cpuLabel, taskLabel: taskLabel, order: order,
		machineOf: (l) => (l.kind === 'cpu' || l.kind === 'ov' ? ofCpu(l.cpu) : ofPid(l.pid)),
		/* an event's line starts with its machine, as trace-cmd report's with its file */
		evPrefix: (c) => named(ofCpu(c)),
		cpuOf: (c) => { const m = ofCpu(c); return m ? c - m.cpu0 : c; },
		pidOf: (pid) => { const m = ofPid(pid); return m ? pid - m.pidBase : pid; },
		commOf: (pid, comm) => named(ofPid(pid)) + comm };
}
