// Memory of the server under test, read from /proc (Linux): the resident set of a process and all its
// descendants (`npm start` runs Next inside a child node process). The server's pid is given, or found
// as the owner of the listening socket of the URL's port.
import fs from 'node:fs';

const read = (p: string) => {
  try {
    return fs.readFileSync(p, 'utf8');
  } catch {
    return '';
  }
};

function children(pid: number): number[] {
  const out: number[] = [];
  for (const tid of fs.existsSync(`/proc/${pid}/task`) ? fs.readdirSync(`/proc/${pid}/task`) : []) {
    out.push(...read(`/proc/${pid}/task/${tid}/children`).split(/\s+/).filter(Boolean).map(Number));
  }
  return out;
}

/** Resident memory in bytes of pid and its descendants; undefined when the process is gone. */
export function treeRss(pid: number): number | undefined {
  if (!fs.existsSync(`/proc/${pid}`)) return undefined;
  let total = 0;
  const todo = [pid];
  while (todo.length) {
    const p = todo.pop()!;
    const m = /VmRSS:\s+(\d+) kB/.exec(read(`/proc/${p}/status`));
    if (m) total += Number(m[1]) * 1024;
    todo.push(...children(p));
  }
  return total;
}

/** The pid listening on a local TCP port, if it is one of ours (its fds are readable). */
export function pidListeningOn(port: number): number | undefined {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of read(table).split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length > 9 && f[3] === '0A' && parseInt(f[1]!.split(':')[1]!, 16) === port) inodes.add(f[9]!);
    }
  }
  if (!inodes.size) return undefined;
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let fds: string[];
    try {
      fds = fs.readdirSync(`/proc/${name}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${name}/fd/${fd}`));
        if (m && inodes.has(m[1]!)) return Number(name);
      } catch {
        // the fd closed while we looked
      }
    }
  }
  return undefined;
}
