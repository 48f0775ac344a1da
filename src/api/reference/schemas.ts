// Response rows of the reference endpoints, field for field as the spec's tables; the repository's
// rows are typed from them.
import { Type } from 'typebox';
import { DateStr, Int, Nullable, Str } from '../common/schemas.js';

export const StateSchema = Type.Object({ state_id: Int(), state_abbr: Str(), state_name: Str(), capitol: Str() });

export const SessionSchema = Type.Object({
  session_id: Int(),
  state_id: Int(),
  state_abbr: Str(),
  year_start: Int(),
  year_end: Int(),
  special: Type.Integer({ description: '1 marks a special session' }),
  session_tag: Str(),
  session_title: Str(),
  session_name: Str(),
  sine_die: Type.Integer({ description: '0 means the session is still sitting; any other value means adjourned' }),
  session_start_date: Nullable(DateStr()),
  actual_sine_die_date: Nullable(DateStr()),
  expected_sine_die_date: Nullable(
    DateStr(),
    'YYYY-MM-DD. The spec types this as a date; it is null only where the source publishes no scheduled ' +
      'adjournment (a Congress or a prefile window without an announced end, a special session called open-ended): a made-up date would be worse than none. ' +
      'The demo corpus always carries one.',
  ),
  prefile: Int(),
  prior: Int(),
  source_url: Str(),
});
