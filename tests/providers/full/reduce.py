#!/usr/bin/env python3
"""Reduces a provider's whole OpenAPI 3 or Swagger 2.0 document to facts.

Keeps every path, operation (with its `operationId` and `tags`), parameter, schema, response
header, security scheme and example; drops prose (`description`, `summary`, `title` except the
document's own, `externalDocs`) and vendor extensions (`x-*`). Example values are copied whole,
whatever keys they hold. A response's `description`, which both formats require, is left empty.
One fact the importer reads from prose is kept: the webhook signature headers a description
names (Resend's tag `Webhooks` says its deliveries carry `svix-id`, `svix-timestamp` and
`svix-signature`) stay as that description, the header names alone; a top-level tag is kept
only when its description names them.

    reduce.py SOURCE OUT.json
"""

import json
import re
import sys

import yaml

PROSE = {"description", "summary", "title", "externalDocs"}
TOP = ("swagger", "openapi", "host", "basePath", "schemes", "consumes", "produces", "servers",
       "security", "securityDefinitions", "paths", "definitions", "parameters", "responses",
       "components", "webhooks")
# Header names of a webhook signature (Standard Webhooks, and Svix's own names for them).
SIGNATURE_HEADERS = re.compile(r"\b(?:svix|webhook)-(?:id|timestamp|signature)\b", re.IGNORECASE)
# Keys whose values are data, not descriptions: copied as they are.
VALUES = {"example", "default", "enum", "const"}


class Yaml12(yaml.SafeLoader):
    """YAML read as the importer reads it (the 1.2 core schema): `yes`, `no`, `on`, `off` and
    dates stay strings."""


Yaml12.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers
            if tag not in ("tag:yaml.org,2002:bool", "tag:yaml.org,2002:timestamp")]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
Yaml12.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f) if path.endswith(".json") else yaml.load(f, Loader=Yaml12)


def examples(value):
    """`examples`: a JSON Schema array or a Swagger 2.0 map (copied), or OpenAPI 3 Example
    objects (their prose dropped, their `value` copied)."""
    if not isinstance(value, dict):
        return value
    out = {}
    for name, item in value.items():
        if isinstance(item, dict) and ({"value", "externalValue", "$ref"} & item.keys()):
            out[name] = {k: v for k, v in item.items() if k not in PROSE and not str(k).startswith("x-")}
        else:
            out[name] = item
    return out


def signature_headers(text):
    """The webhook signature header names `text` mentions, in order, each once, as one line
    (`svix-id, svix-timestamp, svix-signature`); empty when it names none."""
    names = []
    for name in SIGNATURE_HEADERS.findall(text):
        if name.lower() not in names:
            names.append(name.lower())
    return ", ".join(names)


def tags(value):
    """The document's tags whose descriptions name webhook signature headers, as names and
    those headers; the others hold prose only."""
    kept = [strip(t) for t in value if isinstance(t, dict)]
    return [t for t in kept if "description" in t]


def strip(node, in_responses=False):
    if isinstance(node, list):
        return [strip(v) for v in node]
    if not isinstance(node, dict):
        return node
    out = {}
    for key, value in node.items():
        key = str(key)
        if key.startswith("x-"):
            continue
        if key in VALUES:
            out[key] = value
        elif key == "examples":
            out[key] = examples(value)
        elif key in ("properties", "patternProperties", "definitions", "schemas", "headers",
                     "parameters", "securitySchemes", "securityDefinitions", "mapping",
                     "requestBodies", "links", "callbacks", "content", "encoding", "variables"):
            # Maps whose keys are names (a property may be called `description`).
            out[key] = {k: strip(v) for k, v in value.items()} if isinstance(value, dict) else strip(value)
        elif key == "responses":
            out[key] = {k: strip(v, True) for k, v in value.items()} if isinstance(value, dict) else value
        elif key in PROSE and isinstance(value, str):
            facts = signature_headers(value)
            if key == "description" and facts:
                out[key] = facts
            continue
        else:
            out[key] = strip(value)
    if in_responses and "$ref" not in out:
        out["description"] = ""
    return out


def compact(doc):
    """The document as JSON with each entry of its name-keyed sections on a line of its own."""
    lines = ["{"]
    items = list(doc.items())
    for i, (key, value) in enumerate(items):
        comma = "," if i + 1 < len(items) else ""
        if isinstance(value, dict) and key in ("paths", "definitions", "components", "parameters", "responses"):
            lines.append(f"{json.dumps(key)}: {{")
            entries = list(value.items())
            for j, (name, entry) in enumerate(entries):
                inner = "," if j + 1 < len(entries) else ""
                lines.append(f"  {json.dumps(name, ensure_ascii=False)}: "
                             f"{json.dumps(entry, ensure_ascii=False, separators=(',', ':'))}{inner}")
            lines.append(f"}}{comma}")
        else:
            lines.append(f"{json.dumps(key)}: {json.dumps(value, ensure_ascii=False, separators=(',', ':'))}{comma}")
    lines.append("}")
    return "\n".join(lines)


def main():
    source, target = sys.argv[1], sys.argv[2]
    doc = load(source)
    out = {k: strip(doc[k]) for k in TOP if k in doc}
    if tags(doc.get("tags", [])):
        out["tags"] = tags(doc["tags"])
    # Paths map names to items: `responses` under `components` are named responses too.
    if "responses" in doc and "swagger" in doc:
        out["responses"] = {k: strip(v, True) for k, v in doc["responses"].items()}
    if "components" in doc and "responses" in doc["components"]:
        out["components"]["responses"] = {
            k: strip(v, True) for k, v in doc["components"]["responses"].items()
        }
    info = doc.get("info", {})
    out = {k: out[k] for k in ("swagger", "openapi") if k in out} | {
        "info": {"title": info.get("title", ""), "version": info.get("version", "")}
    } | {k: v for k, v in out.items() if k not in ("swagger", "openapi")}
    with open(target, "w", encoding="utf-8") as f:
        # One path, definition or component per line: small, and a diff still shows which.
        f.write(compact(out))
        f.write("\n")


if __name__ == "__main__":
    main()
