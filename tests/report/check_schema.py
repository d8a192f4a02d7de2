#!/usr/bin/python3
"""check_schema.py SCHEMA FIXTURES_DIR

Validate the report fixtures against docs/report-schema.json with a small
JSON Schema validator (standard library only). It knows the keywords the
schema uses: type, const, enum, pattern, required, properties,
additionalProperties (false), items, minItems, maxItems, minimum, maximum,
oneOf and local $ref; any other keyword in the schema is an error, so the
schema cannot silently outgrow the checker.

Every fixture must validate, except hostile.json: its change_id carries
markup, which a real document cannot (an LLM change with an unknown id is
dropped), so it must fail on exactly that field. That also shows the
validator rejects what it should.
"""
import json
import os
import re
import sys

KNOWN = {"$schema", "$defs", "title", "description", "type", "const", "enum", "pattern",
         "required", "properties", "additionalProperties", "items", "minItems",
         "maxItems", "minimum", "maximum", "oneOf", "$ref"}
TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


def resolve(root, ref):
    if not ref.startswith("#/"):
        raise SystemExit("check_schema: only local $ref supported: " + ref)
    node = root
    for part in ref[2:].split("/"):
        node = node[part]
    return node


def validate(root, schema, value, path, errors):
    unknown = set(schema) - KNOWN
    if unknown:
        raise SystemExit("check_schema: unsupported keywords %s at %s" % (sorted(unknown), path))
    if "$ref" in schema:
        validate(root, resolve(root, schema["$ref"]), value, path, errors)
    if "type" in schema:
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(TYPES[t](value) for t in types):
            errors.append("%s: %r is not %s" % (path, value, "/".join(types)))
            return
    if "const" in schema and value != schema["const"]:
        errors.append("%s: %r is not %r" % (path, value, schema["const"]))
    if "enum" in schema and value not in schema["enum"]:
        errors.append("%s: %r not in enum" % (path, value))
    if "pattern" in schema and isinstance(value, str) and not re.search(schema["pattern"], value):
        errors.append("%s: %r does not match %s" % (path, value, schema["pattern"]))
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if "minimum" in schema and value < schema["minimum"]:
            errors.append("%s: %r < %r" % (path, value, schema["minimum"]))
        if "maximum" in schema and value > schema["maximum"]:
            errors.append("%s: %r > %r" % (path, value, schema["maximum"]))
    if "oneOf" in schema:
        ok = 0
        for sub in schema["oneOf"]:
            sub_errors = []
            validate(root, sub, value, path, sub_errors)
            ok += not sub_errors
        if ok != 1:
            errors.append("%s: matches %d of the oneOf alternatives, want 1" % (path, ok))
    if isinstance(value, dict):
        for key in schema.get("required", []):
            if key not in value:
                errors.append("%s: missing %s" % (path, key))
        props = schema.get("properties", {})
        for key, sub in value.items():
            if key in props:
                validate(root, props[key], sub, path + "." + key, errors)
            elif schema.get("additionalProperties", True) is False:
                errors.append("%s: unexpected key %s" % (path, key))
    if isinstance(value, list):
        if "minItems" in schema and len(value) < schema["minItems"]:
            errors.append("%s: %d items < %d" % (path, len(value), schema["minItems"]))
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            errors.append("%s: %d items > %d" % (path, len(value), schema["maxItems"]))
        if "items" in schema:
            for i, sub in enumerate(value):
                validate(root, schema["items"], sub, "%s[%d]" % (path, i), errors)


def main():
    schema_path, fixtures = sys.argv[1], sys.argv[2]
    with open(schema_path) as f:
        schema = json.load(f)
    names = sorted(n for n in os.listdir(fixtures) if n.endswith(".json"))
    failed = 0
    for name in names:
        with open(os.path.join(fixtures, name)) as f:
            doc = json.load(f)
        errors = []
        validate(schema, schema, doc, "$", errors)
        if name == "hostile.json":
            want = ["$.advice.changes[0].change_id: 'larger_requests`<script>' not in enum"]
            if errors != want:
                print("check_schema: %s: errors %s, want %s" % (name, errors, want))
                failed += 1
        elif errors:
            print("check_schema: %s: %s" % (name, "; ".join(errors[:5])))
            failed += 1
    if len(names) < 5:
        print("check_schema: only %d fixtures in %s" % (len(names), fixtures))
        failed += 1
    if not failed:
        print("check_schema: %d fixtures checked against %s" % (len(names), schema_path))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
