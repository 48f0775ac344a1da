// Response rows of the subjects endpoints, field for field as the spec's tables; the repository's
// rows are typed from them.
import { Type } from 'typebox';
import { Int, Str } from '../common/schemas.js';

export const SubjectListRow = Type.Object({ subject_id: Int(), subject_name: Str(), bill_count: Int() });
