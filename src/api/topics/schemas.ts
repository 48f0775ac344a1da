// Response rows of the topics endpoints, field for field as the spec's tables; the repository's
// rows are typed from them.
import { Type } from 'typebox';
import { Int, Str } from '../common/schemas.js';

const topicFields = {
  slug: Type.String({ description: 'lowercase letters, digits, dashes' }),
  display_name: Str(),
  description: Str(),
  emoji: Str(),
  sort_order: Int(),
  bill_count: Type.Integer({ description: 'bills tagged with a subject mapped to this topic' }),
};
export const TopicSchema = Type.Object(topicFields);
export const TopicDetailSchema = Type.Object({
  ...topicFields,
  raw_subjects_mapped: Type.Integer({
    description: 'raw subject labels folded into this topic (interface labels not counted)',
  }),
  sample_subjects: Type.Array(Type.String(), {
    maxItems: 25,
    description:
      'up to 25 distinct raw subject names (a name used by several states, in any letter case, counts once with its bill counts summed, spelled as its most used form), by bill count descending',
    uniqueItems: true,
  }),
});
