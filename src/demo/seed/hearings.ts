// Committee hearings through 2026: past ones (completed, most with video, some with audio and a
// transcript, some with none), a few live at the corpus' "now", scheduled ones ahead, and the odd
// cancellation. Media fields stay null where nothing was published.
import { CORPUS_NOW, DAY, DEMO_ID_BASE, hex, isoDate, isoTime, type SeedContext } from './context.js';
import type { CommitteeInfo } from './committees.js';
import type { Rng } from './prng.js';
import { rngFor } from './prng.js';
import type { CopyBuffer } from './copy.js';

function status(rng: Rng, day: number): { status: string; live: boolean } {
  const today = Math.floor(CORPUS_NOW / DAY) * DAY;
  if (day > today) return { status: rng.chance(0.05) ? 'cancelled' : 'scheduled', live: false };
  if (day === today) return rng.chance(0.6) ? { status: 'live', live: true } : { status: 'scheduled', live: false };
  return { status: rng.chance(0.03) ? 'cancelled' : 'completed', live: false };
}

export function generateHearings(
  ctx: SeedContext,
  committees: Map<number, CommitteeInfo[]>,
  sample: Map<number, { bill_id: number; bill_number: string }[]>,
  out: CopyBuffer,
): void {
  let seq = 0;
  const today = Math.floor(CORPUS_NOW / DAY) * DAY;
  for (const [, list] of [...committees.entries()].sort((a, b) => a[0] - b[0])) {
    for (const c of list) {
      const rng = rngFor(ctx.seed, `hearings:${c.committee_id}`);
      const bills = sample.get(c.state_id) ?? [];
      const count = rng.int(0, 5);
      for (let k = 0; k < count; k++) {
        const id = DEMO_ID_BASE + ++seq;
        // Mostly past hearings; one in eight on "today" (live or about to start), some ahead.
        const day = rng.chance(0.12) ? today : today + rng.int(-300, 25) * DAY;
        const time = rng.pick(['08:00', '09:30', '10:00', '13:30', '15:00']);
        const when = day + (Number(time.slice(0, 2)) + 5) * 3_600_000 + Number(time.slice(3)) * 60_000;
        const s = status(rng, day);
        const past = s.status === 'completed';
        const video = (past || s.live) && rng.chance(0.65);
        const audio = past && rng.chance(0.35);
        const transcript = past && video && rng.chance(0.4);
        const discussed = bills.length ? rng.sample(bills, rng.int(0, 4)) : [];
        const polished =
          transcript && rng.chance(0.5)
            ? { id: hex(rng, 8), segments: [{ speaker: 'CHAIR', text: 'The committee will come to order.' }] }
            : null;
        const base = `https://legislature.example.gov/media/${c.committee_id}/${id}`;
        out.row([
          id,
          c.state_id,
          c.committee_id,
          c.chamber,
          c.name,
          `${c.name} hearing`,
          discussed.length
            ? `Public hearing on ${discussed.map((b) => b.bill_number).join(', ')}`
            : 'Informational hearing',
          isoDate(day),
          time,
          isoTime(when),
          s.live,
          s.status,
          `State Capitol, Room ${rng.int(100, 499)}`,
          String(rng.int(100, 499)),
          video ? `${base}/video.m3u8` : null,
          video ? rng.pick(['hls', 'youtube', 'granicus']) : '',
          video && past ? rng.int(1800, 14400) : 0,
          audio ? `${base}/audio.mp3` : null,
          transcript ? `${base}/transcript.txt` : null,
          transcript
            ? `CHAIR: The committee will come to order. ${discussed.map((b) => `We now take up ${b.bill_number}.`).join(' ')} The committee stands adjourned.`
            : null,
          transcript ? 'text' : '',
          video && rng.chance(0.5),
          [
            { role: 'chair', name: 'Chair' },
            ...(discussed.length ? [{ role: 'witness', name: 'Public witness' }] : []),
          ],
          discussed,
          [],
          rng.chance(0.3) ? ['public testimony'] : [],
          `${base}`,
          isoTime(Math.min(CORPUS_NOW, when + DAY)),
          isoTime(Math.min(CORPUS_NOW, when + 2 * DAY)),
          past ? rng.int(0, 5000) : 0,
          transcript ? isoTime(Math.min(CORPUS_NOW, when + DAY)) : null,
          polished,
          polished ? isoTime(Math.min(CORPUS_NOW, when + 2 * DAY)) : null,
        ]);
      }
    }
  }
}
