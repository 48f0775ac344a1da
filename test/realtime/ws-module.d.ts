// `ws` ships no type declarations and @types/ws is not a dependency; the tests use it untyped.
declare module 'ws';
