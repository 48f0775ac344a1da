// Raw subject labels per jurisdiction, their topic links (one rule set: src/topics/rules.ts) and
// the interface labels a few state portals attach to bills, which /v1/subjects must not list.
import { isInterfaceLabel, topicsForSubject } from '../../topics/rules.js';
import { DEMO_ID_BASE, INTERFACE_LABEL_STATES, type SeedContext } from './context.js';
import type { CopyBuffer } from './copy.js';
import { rngFor } from './prng.js';
import { INTERFACE_LABELS, SUBJECTS } from './words.js';

export interface SubjectInfo {
  subject_id: number;
  name: string;
  interface: boolean;
  topicIds: number[];
}

export interface StateSubjects {
  policy: SubjectInfo[];
  labels: SubjectInfo[];
}

export const SUBJECT_COLUMNS = ['subject_id', 'state_id', 'subject_name', 'is_interface_label', 'bill_count'];
export const SUBJECT_TOPIC_COLUMNS = ['subject_id', 'topic_id'];

export function generateSubjects(ctx: SeedContext, out: CopyBuffer, links: CopyBuffer): Map<number, StateSubjects> {
  const byState = new Map<number, StateSubjects>();
  for (const st of ctx.states) {
    const rng = rngFor(ctx.seed, `subjects:${st.state_id}`);
    const names = rng.sample(SUBJECTS, rng.int(45, 70)).sort();
    const labels = INTERFACE_LABEL_STATES.has(st.state_abbr) ? INTERFACE_LABELS : [];
    const result: StateSubjects = { policy: [], labels: [] };
    [...names, ...labels].forEach((name, i) => {
      const id = DEMO_ID_BASE + st.state_id * 1000 + i;
      const iface = isInterfaceLabel(name);
      const topicIds = topicsForSubject(name)
        .map((slug) => ctx.topicIds.get(slug))
        .filter((t): t is number => t !== undefined);
      // bill_count is filled in after the bills are loaded.
      out.row([id, st.state_id, name, iface, 0]);
      for (const t of topicIds) links.row([id, t]);
      (iface ? result.labels : result.policy).push({ subject_id: id, name, interface: iface, topicIds });
    });
    byState.set(st.state_id, result);
  }
  return byState;
}
