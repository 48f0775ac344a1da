// Schema validators per part of a request. Query strings, path parameters and headers arrive as
// text, so they are coerced to their schema's types ('array' reads a lone ?x=a as a list of one).
// A JSON body already carries its types: coercing it accepted `"events": "signed"` as ["signed"] and
// `"states": "CA"` as ["CA"] (and 5 as "5"), hiding a client's mistake. Bodies are validated as sent,
// so a string where the schema wants a list is 400 bad_request naming the field.
import AjvCompiler from '@fastify/ajv-compiler';

type AjvServerOptions = { customOptions?: Record<string, unknown>; plugins?: unknown[] };
type RouteSchema = { schema: unknown; method: string; url: string; httpPart?: string };
type Compile = (route: RouteSchema) => unknown;
type Build = (externalSchemas: Record<string, unknown>, options: AjvServerOptions) => Compile;

/** compilersFactory.buildValidator for Fastify: the configured Ajv for text parts, no coercion for bodies. */
export function partAwareValidators(): AjvCompiler.BuildCompilerFromPool {
  // Typed by the package as (schema) => validate; Fastify calls it with the route definition.
  const pool = AjvCompiler() as unknown as Build;
  const build: Build = (externalSchemas, options) => {
    const text = pool(externalSchemas, options);
    const json = pool(externalSchemas, { ...options, customOptions: { ...options.customOptions, coerceTypes: false } });
    return (route) => (route.httpPart === 'body' ? json(route) : text(route));
  };
  return build as unknown as AjvCompiler.BuildCompilerFromPool;
}
