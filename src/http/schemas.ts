// Shared response schemas. The error envelope is one OpenAPI component referenced by every route.
import { Type } from 'typebox';

export const ErrorSchema = Type.Object(
  {
    error: Type.Object(
      {
        code: Type.String(),
        message: Type.String(),
        request_id: Type.String({ format: 'uuid' }),
        docs: Type.String(),
      },
      { additionalProperties: true },
    ),
  },
  { $id: 'ErrorEnvelope' },
);

export const errorResponses = (...statuses: number[]) => Object.fromEntries(statuses.map((s) => [s, ErrorSchema]));
