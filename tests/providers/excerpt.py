#!/usr/bin/env python3
"""Reduces a provider's OpenAPI 3 document to the operations a provider test uses.

Keeps paths, parameters, request and response schemas, examples, security schemes and
servers; follows every `$ref` the kept operations need; drops prose (`description`,
`summary`), tags, vendor extensions (`x-*`), response headers and external docs. An
optional overlay (a JSON or YAML file with `paths` and `components`) is merged on top:
facts the provider documents elsewhere than in its OpenAPI file (an error body, a
webhook payload), each marked with `x-source` so the README can say where it came from;
its `x-fix` map (JSON pointer -> value) corrects places where a document contradicts
its own examples.

    excerpt.py SOURCE OUT --op 'GET /path' [--op ...] [--webhook NAME ...] [--overlay FILE]
               [--max-examples N] [--keep-operation-ids]

`--webhook NAME` keeps an OpenAPI 3.1 `webhooks` entry (its payload schemas follow).
"""

import argparse
import copy
import json
import sys

import yaml

PROSE = {"description", "summary", "tags", "externalDocs", "title", "operationId"}
METHODS = {"get", "put", "post", "delete", "patch", "head", "options"}


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f) if path.endswith(".json") else yaml.safe_load(f)


def strip(node, max_examples, keep=frozenset()):
    """A copy of `node` without prose and vendor extensions; `examples` maps cut to N."""
    if isinstance(node, dict):
        out = {}
        for key, value in node.items():
            if key in PROSE and key not in keep:
                # `title`/`description` may also be property names inside `properties`.
                continue
            if isinstance(key, str) and key.startswith("x-") and key != "x-source":
                continue
            if key == "headers":
                continue
            # Values are data, not prose: an example's `description` key is the provider's.
            if key in ("example", "value", "default", "const", "enum"):
                out[key] = copy.deepcopy(value)
                continue
            if key == "examples" and isinstance(value, dict):
                value = dict(list(value.items())[:max_examples])
            if key == "properties" and isinstance(value, dict):
                out[key] = {k: strip(v, max_examples) for k, v in value.items()}
                continue
            out[key] = strip(value, max_examples)
        return out
    if isinstance(node, list):
        return [strip(v, max_examples) for v in node]
    return node


def refs(node):
    """Every local `$ref` inside `node`, and the schemas a `discriminator.mapping` names."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str) and value.startswith("#/"):
                yield value
            elif key == "discriminator" and isinstance(value, dict):
                for target in (value.get("mapping") or {}).values():
                    if isinstance(target, str):
                        yield target if target.startswith("#/") else f"#/components/schemas/{target}"
            else:
                yield from refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from refs(value)


def resolve(doc, pointer):
    node = doc
    for part in pointer[2:].split("/"):
        node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


def merge(base, extra):
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            merge(base[key], value)
        else:
            base[key] = copy.deepcopy(value)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source")
    parser.add_argument("out")
    parser.add_argument("--op", action="append", required=True, help="'METHOD /path'")
    parser.add_argument("--webhook", action="append", default=[], help="a `webhooks` key")
    parser.add_argument("--overlay")
    parser.add_argument("--max-examples", type=int, default=2)
    parser.add_argument("--keep-operation-ids", action="store_true",
                        help="keep each kept operation's `operationId` (names, not prose)")
    args = parser.parse_args()

    doc = load(args.source)
    out = {
        "openapi": doc.get("openapi", "3.0.1"),
        "info": {"title": doc.get("info", {}).get("title", ""), "version": doc.get("info", {}).get("version", "")},
        "servers": doc.get("servers", []),
        "paths": {},
    }
    if "security" in doc:
        out["security"] = doc["security"]
    for op in args.op:
        method, path = op.split(" ", 1)
        method = method.lower()
        item = doc["paths"].get(path)
        if item is None or method not in item:
            sys.exit(f"{args.source}: no operation {op}")
        kept = out["paths"].setdefault(path, {})
        for key, value in item.items():
            if key not in METHODS and key not in kept and key not in PROSE and not key.startswith("x-"):
                kept[key] = strip(value, args.max_examples)
        kept[method] = strip(item[method], args.max_examples)
        if args.keep_operation_ids and "operationId" in item[method]:
            kept[method]["operationId"] = item[method]["operationId"]

    for name in args.webhook:
        hook = doc.get("webhooks", {}).get(name)
        if hook is None:
            sys.exit(f"{args.source}: no webhook {name}")
        out.setdefault("webhooks", {})[name] = strip(hook, args.max_examples)

    fixes = {}
    if args.overlay:
        overlay = load(args.overlay)
        fixes = overlay.pop("x-fix", {})
        merge(out, overlay)

    # Copy every component the kept operations reach, transitively.
    components = {}
    if "securitySchemes" in doc.get("components", {}):
        components["securitySchemes"] = strip(doc["components"]["securitySchemes"], args.max_examples)
    pending = list(refs(out))
    seen = set()
    while pending:
        pointer = pending.pop()
        if pointer in seen or not pointer.startswith("#/components/"):
            continue
        seen.add(pointer)
        try:
            target = strip(resolve(doc, pointer), args.max_examples)
        except KeyError:
            continue  # supplied by the overlay
        _, _, section, name = pointer.split("/", 3)
        components.setdefault(section, {})[name] = target
        pending.extend(refs(target))
    overlay_components = out.pop("components", {})
    # An overlay entry refines the document's component of that name, when there is one.
    for section, entries in overlay_components.items():
        for name in entries:
            pointer = f"#/components/{section}/{name}"
            if pointer not in seen and name in doc.get("components", {}).get(section, {}):
                seen.add(pointer)
                target = strip(doc["components"][section][name], args.max_examples)
                components.setdefault(section, {})[name] = target
                pending.extend(refs(target))
    merge(components, overlay_components)
    # The overlay's own components may reach further components of the document.
    pending.extend(refs(overlay_components))
    while pending:
        pointer = pending.pop()
        if pointer in seen or not pointer.startswith("#/components/"):
            continue
        seen.add(pointer)
        _, _, section, name = pointer.split("/", 3)
        if name in components.get(section, {}):
            continue
        try:
            target = strip(resolve(doc, pointer), args.max_examples)
        except KeyError:
            sys.exit(f"{args.out}: unresolved {pointer}")
        components.setdefault(section, {})[name] = target
        pending.extend(refs(target))
    out["components"] = {k: dict(sorted(v.items())) for k, v in sorted(components.items())}
    # Corrections where a document contradicts itself (README.md lists each with its reason):
    # `x-fix: {"/json/pointer": value}` replaces the value at that pointer (`null` removes it).
    for pointer, value in fixes.items():
        parts = [p.replace("~1", "/").replace("~0", "~") for p in pointer[1:].split("/")]
        node = out
        for part in parts[:-1]:
            node = node[int(part)] if isinstance(node, list) else node[part]
        last = int(parts[-1]) if isinstance(node, list) else parts[-1]
        if value is None:
            del node[last]  # `null` removes the key
        else:
            node[last] = value

    # OpenAPI requires a description on every response; the prose is dropped, so it is empty.
    def describe(node, in_responses=False):
        if isinstance(node, dict):
            if in_responses:
                for response in node.values():
                    if isinstance(response, dict) and "$ref" not in response:
                        response["description"] = ""
            for key, value in node.items():
                describe(value, key == "responses")
        elif isinstance(node, list):
            for value in node:
                describe(value)

    describe(out)

    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(out, f, indent=1, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main()
