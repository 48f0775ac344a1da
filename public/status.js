// Connection state in plain words: what the stream client reports, turned into the badge text and,
// when something needs the person's attention, an explanation of what to do.

const secondsLeft = (until) => Math.max(0, Math.ceil((until - Date.now()) / 1000));

/** A wait in words: seconds for a burst, hours or days for a monthly cap. */
export function wait(seconds) {
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7200) return `${Math.ceil(seconds / 60)} min`;
  if (seconds < 2 * 86400) return `${Math.ceil(seconds / 3600)} h`;
  return `${Math.ceil(seconds / 86400)} days`;
}

const REFUSALS = {
  unauthorized: 'No API key reached the service. Paste your key and connect again.',
  invalid_api_key:
    'The service does not recognise this API key. Check that it was copied completely (keys start with lds_), or ask the operator for a new one.',
  revoked_api_key: 'This API key has been revoked and no longer works. Ask the operator for a new key.',
};

/** @returns {{ phase: string, text: string, problem?: string }} */
export function describeStatus(s) {
  switch (s.phase) {
    case 'connecting':
      return { phase: 'connecting', text: s.resume ? 'Resuming…' : 'Connecting…' };
    case 'open':
      return { phase: 'open', text: 'Connected, live' };
    case 'waiting': {
      const n = secondsLeft(s.until);
      return {
        phase: 'waiting',
        text: `Reconnecting in ${n} s`,
        problem: `${s.message ?? 'The connection dropped.'} Trying again in ${n} seconds; missed changes will be replayed.`,
      };
    }
    case 'rate_limited': {
      const n = secondsLeft(s.until);
      return {
        phase: 'rate_limited',
        text: `Rate limited, retry in ${wait(n)}`,
        problem: `${s.retryAfter > 60 ? 'This key has used its monthly request allowance' : 'Too many requests for this key right now'} (HTTP 429${s.message ? `: ${s.message}` : ''}). The service asked us to wait ${wait(s.retryAfter)}; the dashboard reconnects by itself in ${wait(n)}. Nothing is lost: the stream resumes where it stopped.`,
      };
    }
    case 'refused': {
      if (s.http === 401)
        return {
          phase: 'refused',
          text: 'Key refused',
          problem: REFUSALS[s.code] ?? `The API key was refused (${s.code ?? 'HTTP 401'}).`,
        };
      return {
        phase: 'refused',
        text: 'Request refused',
        problem: `The service refused the request (HTTP ${s.http}${s.message ? `: ${s.message}` : ''}). Check the filters and connect again.`,
      };
    }
    case 'stopped':
      return { phase: 'stopped', text: 'Disconnected' };
    default:
      return { phase: 'idle', text: 'Not connected' };
  }
}

export function describeHeartbeat(s, heartbeatAt) {
  if (!heartbeatAt) return s.phase === 'open' ? 'waiting for the first one' : 'none yet';
  const age = Math.round((Date.now() - heartbeatAt) / 1000);
  return `${age} s ago${age > 30 ? ' (late)' : ''}`;
}
