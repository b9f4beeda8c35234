#!/usr/bin/env python3
"""What a command and every process it starts hold, sampled every half second.

Runs COMMAND, and every 0.5 s (--every) walks /proc for the command's process
tree (by parent pid), counts its processes and sums their PSS from
/proc/PID/smaps_rollup. Prints, when the command ends: the peak number of
processes, the peak summed PSS (and RSS) and when each was seen, the CPU time
of the whole tree (user+sys, from wait4: this script is the tree's
subreaper, so that a pipeline stage whose parent shell was killed is reaped,
and counted, here) and the wall time, and what held the peak: the summed PSS of each
process group of the tree (an Apertium pipeline is one group, named by its
mode; any other group by its command). With --json OUT the same figures and
every sample go to OUT.

Not for: measuring anything but Linux processes this user may read, or
limiting them (see docs/OPERATING.md, "Footprint").

Usage (from the project root):
  python3 scripts/footprint.py [--every 0.5] [--json OUT] -- target/release/cityvibe --db X run --source madrid
"""
import argparse, ctypes, json, os, sys, time

PR_SET_CHILD_SUBREAPER = 36


def children_map():
    kids = {}
    for pid in os.listdir('/proc'):
        if not pid.isdigit():
            continue
        try:
            with open(f'/proc/{pid}/stat', 'rb') as f:
                stat = f.read()
        except OSError:
            continue
        # The command name may hold spaces and parentheses: the ppid follows the last ')'.
        ppid = int(stat[stat.rfind(b')') + 2:].split()[1])
        kids.setdefault(ppid, []).append(int(pid))
    return kids


def tree(root):
    kids, out, todo = children_map(), [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(kids.get(pid, []))
    return out


def memory(pid):
    """(PSS, RSS) of `pid` in kB, or None when it is gone."""
    pss = rss = 0
    try:
        with open(f'/proc/{pid}/smaps_rollup') as f:
            for line in f:
                if line.startswith('Pss:'):
                    pss = int(line.split()[1])
                elif line.startswith('Rss:'):
                    rss = int(line.split()[1])
    except OSError:
        return None
    return pss, rss


def group_name(pgid):
    """What process group `pgid` runs: a pipeline's mode (`sh -c PIPELINE MODE`), else the command's name."""
    try:
        with open(f'/proc/{pgid}/cmdline', 'rb') as f:
            argv = f.read().split(b'\0')
    except OSError:
        return f'group {pgid}'
    argv = [a.decode('utf-8', 'replace') for a in argv]
    if len(argv) > 3 and os.path.basename(argv[0]) == 'sh' and argv[1] == '-c':
        return argv[3]
    return os.path.basename(argv[0]) if argv and argv[0] else f'group {pgid}'


def pgid_of(pid):
    try:
        with open(f'/proc/{pid}/stat', 'rb') as f:
            stat = f.read()
    except OSError:
        return None
    return int(stat[stat.rfind(b')') + 2:].split()[2])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--every', type=float, default=0.5)
    ap.add_argument('--json')
    ap.add_argument('command', nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.command[1:] if a.command[:1] == ['--'] else a.command
    if not cmd:
        ap.error('no command')
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    start = time.monotonic()
    pid = os.fork()
    if pid == 0:
        os.execvp(cmd[0], cmd)
    samples, peak_procs, peak_pss = [], (0, 0.0), (0, 0, 0.0)
    peak_groups, pid_group = {}, os.getpgid(0)
    status, cpu = None, 0.0
    while True:
        # Reap the command and every orphan of its tree, counting their CPU.
        while True:
            try:
                done, st, ru = os.wait4(-1, os.WNOHANG)
            except ChildProcessError:
                done = 0
            if not done:
                break
            cpu += ru.ru_utime + ru.ru_stime
            if done == pid:
                status = st
        if status is not None and not children_map().get(os.getpid()):
            break
        pids = tree(pid)
        held = [(p, m) for p, m in ((p, memory(p)) for p in pids) if m]
        mem = [m for _, m in held]
        pss, rss = sum(m[0] for m in mem), sum(m[1] for m in mem)
        t = round(time.monotonic() - start, 1)
        samples.append({'t': t, 'processes': len(mem), 'pss_kb': pss, 'rss_kb': rss})
        if len(mem) > peak_procs[0]:
            peak_procs = (len(mem), t)
        if pss > peak_pss[0]:
            peak_pss = (pss, rss, t)
            groups = {}
            for p, m in held:
                g = pgid_of(p)
                name = 'cityvibe and its own children' if g == pid_group else group_name(g)
                key = f'{name} [{g}]'
                n, kb = groups.get(key, (0, 0))
                groups[key] = (n + 1, kb + m[0])
            peak_groups = groups
        time.sleep(a.every)
    wall = time.monotonic() - start
    out = {
        'command': ' '.join(cmd),
        'exit': os.waitstatus_to_exitcode(status),
        'peak_processes': peak_procs[0],
        'peak_processes_at_s': peak_procs[1],
        'peak_pss_mb': round(peak_pss[0] / 1024, 1),
        'rss_at_peak_pss_mb': round(peak_pss[1] / 1024, 1),
        'peak_pss_at_s': peak_pss[2],
        'cpu_s': round(cpu, 2),
        'wall_s': round(wall, 2),
        'samples': len(samples),
        'at_peak_pss': [f'{kb / 1024:.0f} MB {n} processes: {name}'
                        for name, (n, kb) in sorted(peak_groups.items(), key=lambda g: -g[1][1])],
    }
    print(json.dumps(out, indent=1), file=sys.stderr)
    if a.json:
        with open(a.json, 'w') as f:
            json.dump({**out, 'every': samples}, f)
    sys.exit(out['exit'])


if __name__ == '__main__':
    main()
