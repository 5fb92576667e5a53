import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';
import { ResponseSerializationError, serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { safeEncode, toJSONSchema, type ZodType } from 'zod';
import { $ZodType } from 'zod/v4/core';

/**
 * How answers are written: Fastify's own way, fast-json-stringify compiled once per route from the
 * route's zod response schema (as JSON Schema, output side). Only the declared fields leave (what
 * zod's strip did), and a missing required field still fails the answer. The zod check of every
 * answer against its contract (zod encodes a copy of the answer, then JSON.stringify writes it:
 * 5–9 % of the catalogue's throughput on pages of listings) runs only where `checkContract` says,
 * in tests and development, so a handler that drifts from its contract fails there; the bytes
 * written are fast-json-stringify's everywhere. A schema JSON Schema cannot express (a transform)
 * keeps zod's serializer.
 */
export function responseSerializerCompiler(options: { checkContract: boolean }): FastifySerializerCompiler<unknown> {
  return (route) => {
    const schema = zodSchemaOf(route.schema);
    if (!schema) return zodSerializerCompiler(route as never);
    // Compiled at the route's first answer: a service (and each test's app) starts without
    // compiling the routes it never answers.
    let stringify: ((data: unknown) => string) | undefined;
    const write = (data: unknown) => {
      stringify ??= compile(schema) ?? zodSerializerCompiler(route as never);
      return stringify(data);
    };
    if (!options.checkContract) return write;
    return (data) => {
      const checked = safeEncode(schema, data);
      if (checked.error) throw new ResponseSerializationError(route.method, route.url, { cause: checked.error });
      return write(data);
    };
  };
}

/** fast-json-stringify for a schema JSON Schema can express; null for one it cannot (a transform). */
function compile(schema: ZodType): ((data: unknown) => string) | null {
  try {
    return fastJson(simplify(toJSONSchema(schema, { io: 'output', unrepresentable: 'throw' })) as never);
  } catch {
    return null;
  }
}

function zodSchemaOf(schema: unknown): ZodType | null {
  if (schema instanceof $ZodType) return schema as ZodType;
  const properties = (schema as { properties?: unknown } | null)?.properties;
  return properties instanceof $ZodType ? (properties as ZodType) : null;
}

type JsonSchema = { [key: string]: unknown };

const PRIMITIVE = new Set(['string', 'number', 'integer', 'boolean']);

/**
 * `x | null` as `type: [x, 'null']` (or `nullable` for an object or a list) rather than anyOf:
 * fast-json-stringify picks an anyOf branch by validating the value against each one.
 */
function simplify(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(simplify);
  if (!node || typeof node !== 'object') return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) out[key] = simplify(value);
  const anyOf = out.anyOf as JsonSchema[] | undefined;
  if (Array.isArray(anyOf) && anyOf.length === 2) {
    const nullIndex = anyOf.findIndex((s) => s.type === 'null' && Object.keys(s).length === 1);
    const other = anyOf[1 - nullIndex];
    if (nullIndex >= 0 && other && typeof other.type === 'string') {
      const { anyOf: _anyOf, ...rest } = out;
      return PRIMITIVE.has(other.type)
        ? { ...rest, ...other, type: [other.type, 'null'] }
        : { ...rest, ...other, nullable: true };
    }
  }
  return out;
}
