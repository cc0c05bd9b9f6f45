/**
 * `pulumi_voiceplatform/_input_check.py`: the provider's check of a resource's inputs for the
 * Python SDK's mocks (python-testing.ts), so a unit test sees the refusal `pulumi preview` would
 * print. The rules are the resources' zod schemas, walked here into data the module reads (types,
 * required inputs, unknown keys, ranges, enums, patterns and their messages, and the rules
 * core/declared-rules.ts declares as data); the module turns what fails into the words
 * core/check.ts gives (describeIssue, forEngine) and the mocks' refusal (testing/mocks.ts). A rule
 * that is code (a refine, a superRefine, a check's moreFailures but a Voice's samples, whose
 * messages resources/voice.ts gives as data) cannot be carried, nor a declared
 * rule's part it says is not: `uncheckedRules` names each, and the docs list them. A schema node of a kind this
 * walk does not know stops the codegen, so no rule is dropped without a word.
 */
import { ASSET_SIG, isFileAsset, SIG_KEY, UNKNOWN } from "../core/engine-values";
import { fieldNames } from "../core/check";
import { declaredRulesOf, type FieldsRule, type StringRule } from "../core/declared-rules";
import { resources } from "../resources";
import { SAMPLE_CHECK, voice, VOICE_WARNINGS } from "../resources/voice";
import { CAMPAIGN_WEBHOOK_WARNINGS, campaignWebhook } from "../resources/campaign-webhook";
import { SIP_CARRIER_WARNINGS, sipCarrier } from "../resources/sip-carrier";
import { E164, IPV4 } from "../core/input-rules";

type StringCheck =
  | { readonly min: number; readonly message?: string }
  | { readonly max: number }
  | { readonly pattern: string; readonly ignoreCase: boolean; readonly message: string }
  | Omit<StringRule, "notCarried">;

/** A FieldsRule as the module reads it: its pattern, if any, in Python's form. */
type PythonFieldsRule = Omit<FieldsRule, "pattern"> & { pattern?: string; ignoreCase?: boolean };

interface NumberRules {
  readonly int: boolean;
  readonly min?: number;
  readonly max?: number;
}

type RuleNode =
  | { readonly kind: "string"; readonly checks: StringCheck[] }
  | ({ readonly kind: "number" } & NumberRules)
  | { readonly kind: "boolean" }
  | { readonly kind: "file_asset" }
  | { readonly kind: "enum"; readonly values: unknown[] }
  | {
      readonly kind: "array";
      readonly items: RuleNode;
      readonly min?: number;
      readonly max?: number;
    }
  | { readonly kind: "union"; readonly options: RuleNode[] }
  | {
      readonly kind: "object";
      readonly fields: Record<string, { readonly rule: RuleNode; readonly optional: boolean }>;
      readonly strict: boolean;
      readonly rules: PythonFieldsRule[];
    };

/** A rule of a schema that is code, so the Python check does not apply it. */
export interface UncheckedRule {
  readonly kind: string;
  /** Where it applies, in the descriptors' path form (`gateways[]`), "" for the whole inputs. */
  readonly path: string;
  /** Its message where it has one message, or what it is. */
  readonly rule: string;
}

interface ZodInternals {
  readonly _zod: {
    readonly def: {
      readonly type: string;
      readonly checks?: readonly { readonly _zod: { readonly def: CheckDef } }[];
      readonly [key: string]: unknown;
    };
  };
}

interface CheckDef {
  readonly check: string;
  readonly declared?: StringRule;
  readonly format?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly value?: number;
  readonly inclusive?: boolean;
  readonly pattern?: RegExp;
  readonly error?: () => unknown;
}

const defOf = (schema: unknown) => (schema as ZodInternals)._zod.def;

function messageOf(check: CheckDef): string | undefined {
  const message = check.error?.();
  return typeof message === "string" ? message : undefined;
}

/** Walks a schema into the data the Python check reads, noting each rule that is code. */
function ruleOf(
  schema: unknown,
  path: string,
  unchecked: (path: string, rule: string) => void,
): RuleNode {
  const def = defOf(schema);
  const checks: CheckDef[] = [];
  const fieldsRules: PythonFieldsRule[] = [];
  for (const check of def.checks ?? []) {
    const declared = declaredRulesOf(check);
    if (declared === undefined) checks.push(check._zod.def);
    else if ("string" in declared) {
      checks.push({ check: "declared", declared: declared.string });
      if ("notCarried" in declared.string)
        unchecked(path, `${declared.string.rule}: ${declared.string.notCarried}`);
    } else fieldsRules.push(...declared.fields.map((rule) => pythonFieldsRule(rule, path)));
  }
  for (const check of checks.filter((c) => c.check === "custom"))
    unchecked(path, messageOf(check) ?? "a rule of its own (superRefine)");
  const own = checks.filter((c) => c.check !== "custom");
  if (fieldsRules.length > 0 && def.type !== "object")
    throw unknownRule(path, "rules between fields on a schema that is no object");
  switch (def.type) {
    case "string":
      return { kind: "string", checks: own.map((c) => stringCheck(c, path)) } as const;
    case "number":
      return { kind: "number", ...numberRules(own, path) } as const;
    case "boolean":
      return onlyType("boolean", own, path);
    case "enum":
      return {
        kind: "enum",
        values: Object.values(def.entries as Record<string, unknown>),
      } as const;
    case "custom":
      // The one z.custom type the schemas use: a sample file given as a pulumi FileAsset.
      if (def.fn !== isFileAsset) throw unknownRule(path, "a z.custom type");
      return { kind: "file_asset" } as const;
    case "array":
      return {
        kind: "array",
        items: ruleOf(def.element, `${path}[]`, unchecked),
        ...arrayRules(own, path),
      } as const;
    case "union":
      return { kind: "union", options: unionOptions(def.options as unknown[], path) } as const;
    case "object":
      return objectRule(def, path, unchecked, fieldsRules);
    default:
      throw unknownRule(path, `a ${def.type} schema`);
  }
}

function objectRule(
  def: ZodInternals["_zod"]["def"],
  path: string,
  unchecked: (path: string, rule: string) => void,
  rules: PythonFieldsRule[],
): RuleNode {
  const fields: Record<string, { rule: RuleNode; optional: boolean }> = {};
  for (const [key, field] of Object.entries(def.shape as Record<string, unknown>)) {
    const optional = defOf(field).type === "optional";
    const inner = optional ? defOf(field).innerType : field;
    fields[key] = {
      rule: ruleOf(inner, path === "" ? key : `${path}.${key}`, unchecked),
      optional,
    };
  }
  const catchall = def.catchall === undefined ? undefined : defOf(def.catchall).type;
  if (catchall !== undefined && catchall !== "never") throw unknownRule(path, "a catchall");
  return { kind: "object", fields, strict: catchall === "never", rules };
}

function pythonFieldsRule(rule: FieldsRule, path: string): PythonFieldsRule {
  if (rule.rule !== "matchesWhen") return rule;
  return { ...rule, ...pythonPattern(rule.pattern, path) };
}

/** Leaf options only: core/check.ts's "deepest branch" rule is not carried for nested ones. */
function unionOptions(options: unknown[], path: string): RuleNode[] {
  return options.map((option) => {
    const rule = ruleOf(option, path, (_, rule) => {
      throw unknownRule(path, `a union option with a rule of its own (${rule})`);
    });
    if (rule.kind === "object" || rule.kind === "array" || rule.kind === "union")
      throw unknownRule(path, `a union of ${rule.kind}s`);
    return rule;
  });
}

function stringCheck(check: CheckDef, path: string): StringCheck {
  if (check.declared) {
    const { notCarried: _, ...rule } = { notCarried: undefined, ...check.declared };
    return rule;
  }
  if (check.check === "min_length")
    return { min: check.minimum ?? 0, ...optionalMessage(messageOf(check)) };
  if (check.check === "max_length") return { max: check.maximum ?? 0 };
  if (check.check === "string_format" && check.format === "regex" && check.pattern) {
    const message = messageOf(check);
    if (message === undefined) throw unknownRule(path, "a pattern without a message");
    return { ...pythonPattern(check.pattern, path), message };
  }
  throw unknownRule(path, `a string check ${check.check}`);
}

const optionalMessage = (message: string | undefined) => (message === undefined ? {} : { message });

function numberRules(checks: CheckDef[], path: string): NumberRules {
  let rules: NumberRules = { int: false };
  for (const check of checks) {
    if (check.check === "number_format" && check.format === "safeint")
      rules = { ...rules, int: true };
    else if (check.check === "greater_than" && check.inclusive === true)
      rules = { ...rules, min: check.value };
    else if (check.check === "less_than" && check.inclusive === true)
      rules = { ...rules, max: check.value };
    else throw unknownRule(path, `a number check ${check.check}`);
  }
  return rules;
}

function arrayRules(checks: CheckDef[], path: string): { min?: number; max?: number } {
  let rules: { min?: number; max?: number } = {};
  for (const check of checks) {
    if (check.check === "min_length") rules = { ...rules, min: check.minimum };
    else if (check.check === "max_length") rules = { ...rules, max: check.maximum };
    else throw unknownRule(path, `a list check ${check.check}`);
  }
  return rules;
}

function onlyType(kind: "boolean", checks: CheckDef[], path: string): RuleNode {
  if (checks.length > 0) throw unknownRule(path, `a ${kind} check`);
  return { kind };
}

/**
 * A JavaScript pattern as Python's `re` reads it the same: `$` (no m flag) ends the text only,
 * which is `\Z` in Python, and `\d` is ASCII (re.ASCII). Syntax the two read differently stops
 * the codegen.
 */
function pythonPattern(pattern: RegExp, path: string): { pattern: string; ignoreCase: boolean } {
  const flags = pattern.flags.replace("u", "");
  if (flags !== "" && flags !== "i") throw unknownRule(path, `a pattern with flags ${flags}`);
  if (/\\[sSwWbBpPk]|\(\?<[^=!]/.test(pattern.source))
    throw unknownRule(path, `a pattern Python reads otherwise (${pattern.source})`);
  let result = "";
  let inClass = false;
  for (let index = 0; index < pattern.source.length; index += 1) {
    const char = pattern.source[index]!;
    if (char === "\\") {
      result += char + (pattern.source[index + 1] ?? "");
      index += 1;
      continue;
    }
    if (char === "[") inClass = true;
    if (char === "]") inClass = false;
    result += char === "$" && !inClass ? "\\Z" : char;
  }
  return { pattern: result, ignoreCase: flags === "i" };
}

function unknownRule(path: string, what: string): Error {
  return new Error(
    `python-input-check: ${path || "(inputs)"} has ${what}, which the Python mocks' check cannot carry: teach provider/codegen/python-input-check.ts it`,
  );
}

/** What the module knows of each kind: its schema's rules and what the messages need. */
export function inputRulesOf(descriptor: (typeof resources)[number]): {
  rules: RuleNode;
  unchecked: UncheckedRule[];
} {
  const unchecked: UncheckedRule[] = [];
  const rules = ruleOf(descriptor.inputSchema, "", (path, rule) =>
    unchecked.push({ kind: descriptor.type, path, rule }),
  );
  return { rules, unchecked };
}

/** Every rule of the schemas the Python check does not apply (docs/testing-your-stacks.md). */
export function uncheckedRules(): UncheckedRule[] {
  return resources.flatMap((descriptor) => inputRulesOf(descriptor).unchecked);
}

function kindRules(): Record<string, object> {
  return Object.fromEntries(
    resources.map((descriptor) => [
      descriptor.type,
      {
        rules: inputRulesOf(descriptor).rules,
        known_names: fieldNames(descriptor.inputSchema),
        input_names: Object.keys(descriptor.inputSchema.shape),
        secret_paths: descriptor.secretInputs,
      },
    ]),
  );
}

const json = (value: unknown) => JSON.stringify(value);

/** Each kind's warnings as data: their templates and what they compare with. */
function kindWarnings(): Record<string, object> {
  return {
    [voice.type]: VOICE_WARNINGS,
    [campaignWebhook.type]: CAMPAIGN_WEBHOOK_WARNINGS,
    [sipCarrier.type]: {
      ...SIP_CARRIER_WARNINGS,
      ipv4: pythonPattern(IPV4, "gateways[].ipv4"),
      e164: pythonPattern(E164, "phoneNumbers[].phoneNumber"),
    },
  };
}

export function pythonInputCheckModule(): string {
  return `# Generated by \`npm run sdk:generate\` (provider/codegen/python-input-check.ts in
# pulumi-voice-platform) from the resources' schemas: do not edit.
"""
The provider's check of a resource's inputs, for the mocks (testing.py): the rules of the
resources' schemas (types, required inputs, unknown keys, ranges, enums, patterns, rules between
fields, URLs, ids in a path or header) and the words the provider's check gives when one fails,
as \`pulumi preview\` prints them, and a Voice's sample files that cannot be uploaded. Host names
only IDNA's tables refuse are left to preview; see docs/testing-your-stacks.md. It imports nothing
of pulumi.
"""
import ipaddress
import json
import math
import os
import re
import stat
import unicodedata
import urllib.parse
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

__all__ = ["InputError", "failures", "refusal", "warnings"]

_SIG = ${json(SIG_KEY)}
_ASSET_SIG = ${json(ASSET_SIG)}
_UNKNOWN = ${json(UNKNOWN)}
_WHOLE = "(inputs)"
_SECRET_SHOWN = "[secret]"
_MAX_SAFE_INTEGER = 2**53 - 1

# From the schemas: each kind's rules, every field name (for "did you mean"), its top-level
# inputs, and the paths that hold secrets.
_KINDS: Dict[str, Dict[str, Any]] = json.loads(
    """
${JSON.stringify(kindRules(), null, 4).replace(/\\/g, "\\\\")}
"""
)

# What check says of a kind's sample files beyond its schema (resources/voice.ts, SAMPLE_CHECK).
_SAMPLE_KIND = ${json(voice.type)}
_SAMPLES: Dict[str, Any] = json.loads(
    """
${JSON.stringify(SAMPLE_CHECK, null, 4).replace(/\\/g, "\\\\")}
"""
)

# Each kind's warnings (resources/<kind>.ts): said of inputs check passes, never enforced.
_WARNINGS: Dict[str, Dict[str, Any]] = json.loads(
    """
${JSON.stringify(kindWarnings(), null, 4).replace(/\\/g, "\\\\")}
"""
)


class InputError(ValueError):
    """Inputs \`pulumi preview\` would refuse; the message is its refusal."""


class _Missing:
    pass


_MISSING = _Missing()
_PATTERNS: Dict[Tuple[str, bool], "re.Pattern[str]"] = {}


def _pattern(check: Dict[str, Any]) -> "re.Pattern[str]":
    key = (check["pattern"], check["ignoreCase"])
    if key not in _PATTERNS:
        _PATTERNS[key] = re.compile(key[0], re.ASCII | (re.IGNORECASE if key[1] else 0))
    return _PATTERNS[key]


def _issue(path: List[Any], code: str, aborts: bool = False, **details: Any) -> Dict[str, Any]:
    return {"path": path, "code": code, "aborts": aborts, **details}


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _check(rule: Dict[str, Any], value: Any, path: List[Any]) -> List[Dict[str, Any]]:
    """The issues zod finds in a value, in its order."""
    kind = rule["kind"]
    if kind == "string":
        if not isinstance(value, str):
            return [_issue(path, "invalid_type", True, expected="string")]
        return [issue for check in rule["checks"] for issue in _string_issues(check, value, path)]
    if kind == "number":
        return _number_issues(rule, value, path)
    if kind == "boolean":
        return [] if isinstance(value, bool) else [_issue(path, "invalid_type", True, expected="boolean")]
    if kind == "file_asset":
        is_asset = isinstance(value, dict) and value.get(_SIG) == _ASSET_SIG and isinstance(value.get("path"), str)
        return [] if is_asset else [_issue(path, "custom", True, message="Invalid input")]
    if kind == "enum":
        return [] if value in rule["values"] else [_issue(path, "invalid_value", values=rule["values"])]
    if kind == "array":
        return _array_issues(rule, value, path)
    if kind == "union":
        return _union_issues(rule, value, path)
    return _object_issues(rule, value, path)


def _string_issues(check: Dict[str, Any], value: str, path: List[Any]) -> List[Dict[str, Any]]:
    if "min" in check:
        if len(value) >= check["min"]:
            return []
        return [_issue(path, "too_small", origin="string", minimum=check["min"], message=check.get("message", "Too small"))]
    if "max" in check:
        return [] if len(value) <= check["max"] else [_issue(path, "too_big", origin="string", maximum=check["max"])]
    if "rule" in check:
        problem = _STRING_RULES[check["rule"]](check, value)
        return [] if problem is None else [_issue(path, "custom", message=problem)]
    return [] if _pattern(check).search(value) else [_issue(path, "invalid_format", message=check["message"])]


_URL_START = re.compile(r"https?://[^/?#]", re.IGNORECASE)
_URL_FORBIDDEN = re.compile(r"[\\x00-\\x20\\x7f]")
_FORBIDDEN_IN_DOMAIN = re.compile(r"[\\x00-\\x20#%/:<>?@\\[\\\\\\]^|\\x7f]")
_CONTROL_CHARACTER = re.compile(r"[\\x00-\\x1f\\x7f-\\x9f]")


def _is_absolute_url(value: str) -> bool:
    """http(s)://, nothing a URL parser would strip, and a host and port it takes."""
    if not _URL_START.match(value) or _URL_FORBIDDEN.search(value):
        return False
    authority = re.split(r"[/?#\\\\]", value.split("://", 1)[1], 1)[0]
    host_port = authority.rsplit("@", 1)[-1]
    if host_port.startswith("["):
        end = host_port.find("]")
        if end < 0 or not _is_ipv6(host_port[1:end]) or host_port[end + 1 :][:1] not in ("", ":"):
            return False
        port = host_port[end + 2 :]
    else:
        host, _, port = host_port.partition(":")
        if not _is_domain(host):
            return False
    return re.fullmatch(r"[0-9]*", port) is not None and (port == "" or int(port) <= 65535)


def _is_ipv6(text: str) -> bool:
    try:
        ipaddress.IPv6Address(text)
    except ValueError:
        return False
    return "%" not in text


def _is_domain(host: str) -> bool:
    """As the WHATWG URL parser takes a special URL's host (IDNA's tables aside, _idna_label_takes)."""
    domain = urllib.parse.unquote_to_bytes(host).decode("utf-8", errors="replace").lower()
    if domain == "" or _FORBIDDEN_IN_DOMAIN.search(domain):
        return False
    if not all(_idna_label_takes(label) for label in domain.split(".")):
        return False
    return not _ends_in_number(domain) or _is_ipv4_host(domain)


def _idna_label_takes(label: str) -> bool:
    """
    What the parser's IDNA mapping refuses without its tables: an xn-- label that is no punycode
    or holds a control character, and a zero-width joiner not after a virama.
    """
    if label.startswith("xn--") and label.isascii():
        try:
            decoded = label[4:].encode("ascii").decode("punycode")
        except UnicodeError:
            return False
        if decoded == "" or _CONTROL_CHARACTER.search(decoded):
            return False
    return all(
        char != "\\u200d" or (index > 0 and unicodedata.combining(label[index - 1]) == 9)
        for index, char in enumerate(label)
    )


def _ends_in_number(domain: str) -> bool:
    parts = domain.split(".")
    if parts[-1] == "" and len(parts) > 1:
        parts.pop()
    last = parts[-1]
    return re.fullmatch(r"[0-9]+|0[xX][0-9a-fA-F]*", last) is not None


def _ipv4_number(part: str) -> Optional[int]:
    if re.match(r"0[xX]", part):
        digits, radix = part[2:], 16
    elif len(part) > 1 and part.startswith("0"):
        digits, radix = part[1:], 8
    else:
        digits, radix = part, 10
    if digits == "":
        return None if part == "" else 0
    allowed = {16: r"[0-9a-fA-F]+", 8: r"[0-7]+", 10: r"[0-9]+"}[radix]
    return int(digits, radix) if re.fullmatch(allowed, digits) else None


def _is_ipv4_host(domain: str) -> bool:
    parts = domain.split(".")
    if parts[-1] == "" and len(parts) > 1:
        parts.pop()
    numbers = [_ipv4_number(part) for part in parts]
    if len(parts) > 4 or any(number is None for number in numbers):
        return False
    if any(number > 255 for number in numbers[:-1]):
        return False
    return numbers[-1] < 256 ** (5 - len(numbers))


def _absolute_url_problem(check: Dict[str, Any], value: str) -> Optional[str]:
    return None if _is_absolute_url(value) else check["message"]


def _decode_uri_component(value: str) -> str:
    """As JavaScript's decodeURIComponent, or the value itself where that throws."""
    if re.search(r"%(?![0-9a-fA-F]{2})", value):
        return value
    try:
        return urllib.parse.unquote_to_bytes(value).decode("utf-8")
    except UnicodeError:
        return value


def _path_segment_problem(check: Dict[str, Any], value: str) -> Optional[str]:
    # An empty id has its own failure.
    if value == "":
        return None
    decoded = _decode_uri_component(value)
    if decoded in (".", ".."):
        return check["messages"]["dotSegment"].replace("{decoded}", decoded, 1)
    return check["messages"]["control"] if re.search(r"[\\x00-\\x1f\\x7f]", decoded) else None


# What JavaScript's String.prototype.trim removes.
_JS_TRIMMED = "\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff"
_EDGE_WHITE_SPACE = re.compile(rf"^[{_JS_TRIMMED}]|[{_JS_TRIMMED}]\\Z")


def _header_value_problem(check: Dict[str, Any], value: str) -> Optional[str]:
    if _EDGE_WHITE_SPACE.search(value):
        return check["messages"]["edgeWhiteSpace"]
    if re.search(r"[\\x00-\\x1f\\x7f]", value):
        return check["messages"]["control"]
    if re.search(r"[^\\x20-\\x7e]", value):
        return check["messages"]["notAscii"]
    return None


# The string rules declared as data (core/declared-rules.ts), by name.
_STRING_RULES = {
    "absoluteUrl": _absolute_url_problem,
    "pathSegment": _path_segment_problem,
    "headerValue": _header_value_problem,
}


def _number_issues(rule: Dict[str, Any], value: Any, path: List[Any]) -> List[Dict[str, Any]]:
    if not _is_number(value):
        return [_issue(path, "invalid_type", True, expected="number")]
    if rule["int"] and not (float(value).is_integer() and abs(value) <= _MAX_SAFE_INTEGER):
        return [_issue(path, "invalid_type", True, expected="int")]
    issues = []
    if rule.get("min") is not None and value < rule["min"]:
        issues.append(_issue(path, "too_small", origin="number", minimum=rule["min"]))
    if rule.get("max") is not None and value > rule["max"]:
        issues.append(_issue(path, "too_big", origin="number", maximum=rule["max"]))
    return issues


def _array_issues(rule: Dict[str, Any], value: Any, path: List[Any]) -> List[Dict[str, Any]]:
    if not isinstance(value, (list, tuple)):
        return [_issue(path, "invalid_type", True, expected="array")]
    issues = [issue for index, item in enumerate(value) for issue in _check(rule["items"], item, [*path, index])]
    if rule.get("min") is not None and len(value) < rule["min"]:
        issues.append(_issue(path, "too_small", origin="array", minimum=rule["min"]))
    if rule.get("max") is not None and len(value) > rule["max"]:
        issues.append(_issue(path, "too_big", origin="array", maximum=rule["max"]))
    return issues


def _union_issues(rule: Dict[str, Any], value: Any, path: List[Any]) -> List[Dict[str, Any]]:
    """As zod: the first option that passes; else the one option of the value's type; else none fits."""
    results = [_check(option, value, path) for option in rule["options"]]
    if any(not issues for issues in results):
        return []
    of_its_type = [issues for issues in results if not any(issue["aborts"] for issue in issues)]
    if len(of_its_type) == 1:
        return of_its_type[0]
    return [_issue(path, "invalid_union", True, message="Invalid input")]


def _object_issues(rule: Dict[str, Any], value: Any, path: List[Any]) -> List[Dict[str, Any]]:
    if not isinstance(value, dict):
        return [_issue(path, "invalid_type", True, expected="object")]
    issues = []
    for key, field in rule["fields"].items():
        item = value.get(key, _MISSING)
        if item is _MISSING and field["optional"]:
            continue
        issues.extend(_check(field["rule"], item, [*path, key]))
    unknown = [key for key in value if key not in rule["fields"]]
    if rule["strict"] and unknown:
        issues.append(_issue(path, "unrecognized_keys", keys=unknown))
    for fields_rule in rule["rules"]:
        for field, message in _FIELDS_RULES[fields_rule["rule"]](fields_rule, value):
            issues.append(_issue([*path, field], "custom", message=message))
    return issues


def _given(item: Dict[str, Any], field: str) -> bool:
    return field in item


def _known(item: Dict[str, Any], field: str) -> bool:
    return field in item and item[field] != _UNKNOWN


def _requires_one_of(rule: Dict[str, Any], item: Dict[str, Any]) -> List[Tuple[str, str]]:
    return [] if _given(item, rule["field"]) or _given(item, rule["or"]) else [(rule["field"], rule["message"])]


def _matches_when(rule: Dict[str, Any], item: Dict[str, Any]) -> List[Tuple[str, str]]:
    value = item.get(rule["field"])
    if item.get(rule["when"]) is not True or not isinstance(value, str) or _pattern(rule).search(value):
        return []
    return [(rule["field"], rule["message"].replace("{value}", _describe(value), 1))]


def _required_when(rule: Dict[str, Any], item: Dict[str, Any]) -> List[Tuple[str, str]]:
    return [(rule["field"], rule["message"])] if item.get(rule["when"]) is True and not _given(item, rule["field"]) else []


def _true_beside(rule: Dict[str, Any], item: Dict[str, Any]) -> List[Tuple[str, str]]:
    return [(rule["field"], rule["message"])] if _known(item, rule["beside"]) and item.get(rule["field"]) is not True else []


def _required_unless(rule: Dict[str, Any], item: Dict[str, Any]) -> List[Tuple[str, str]]:
    if _given(item, rule["unless"]):
        return []
    value = item.get(rule["field"], _MISSING)
    empty = value is _MISSING or (isinstance(value, (list, tuple)) and len(value) == 0)
    return [(rule["field"], rule["message"])] if empty else []


def _forbidden_beside(rule: Dict[str, Any], item: Dict[str, Any]) -> List[Tuple[str, str]]:
    beside = item.get(rule["beside"])
    if not isinstance(beside, str) or beside == _UNKNOWN:
        return []
    shown = beside if len(beside) <= 60 else f"{beside[:60]}…"
    return [(field, rule["message"].replace("{beside}", shown, 1)) for field in rule["fields"] if _given(item, field)]


# The rules between fields (core/declared-rules.ts), by name.
_FIELDS_RULES = {
    "requiresOneOf": _requires_one_of,
    "matchesWhen": _matches_when,
    "requiredWhen": _required_when,
    "trueBeside": _true_beside,
    "requiredUnless": _required_unless,
    "forbiddenBeside": _forbidden_beside,
}


def _format_path(path: Sequence[Any]) -> str:
    """Pulumi's property path syntax: gateways[0].ipv4."""
    result = ""
    for segment in path:
        if isinstance(segment, int):
            result += f"[{segment}]"
        elif re.fullmatch(r"[^.\\[\\]\\"'\\s\\x00-\\x1f\\x7f-\\x9f]+", segment):
            result += segment if result == "" else f".{segment}"
        else:
            result += f"[{json.dumps(segment, ensure_ascii=False)}]"
    return result


def _secret_pattern(secret: str) -> List[Any]:
    return [segment for part in secret.split(".") for segment in ([part[:-2], "*"] if part.endswith("[]") else [part])]


def _touches_secret(path: Sequence[Any], secret_paths: Iterable[str]) -> bool:
    """At, under or above a secret path (a list's items written \`headers[].value\`)."""
    for secret in secret_paths:
        pattern = _secret_pattern(secret)
        matches = lambda length: all(pattern[i] == "*" or pattern[i] == path[i] for i in range(length))
        if len(path) < len(pattern) and matches(len(path)):
            return True
        if len(path) >= len(pattern) and matches(len(pattern)):
            return True
    return False


def _top_level(secret_paths: Iterable[str]) -> List[str]:
    return [re.split(r"[.\\[]", path)[0] for path in secret_paths]


def _value_at(root: Any, path: Sequence[Any]) -> Tuple[Any, bool]:
    """The value at a path, and whether the way to it is unknown (a mocked preview's)."""
    current = root
    for segment in path:
        if current == _UNKNOWN:
            return current, True
        if isinstance(current, dict) and isinstance(segment, str):
            current = current.get(segment, _MISSING)
        elif isinstance(current, (list, tuple)) and isinstance(segment, int) and 0 <= segment < len(current):
            current = current[segment]
        else:
            return _MISSING, False
    return current, isinstance(current, str) and current == _UNKNOWN


def _js_number(value: Any) -> str:
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e21:
        return str(int(value))
    return str(value)


def _describe(value: Any) -> str:
    """A short description of a value, as the provider's messages give it."""
    if value is _MISSING:
        return "nothing"
    if value is None:
        return "null"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else f"{value[:40]}…"
        return json.dumps(shown, ensure_ascii=False)
    if isinstance(value, (list, tuple)):
        return f"a list of {len(value)}"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, bool):
        return f"boolean {'true' if value else 'false'}"
    if isinstance(value, (int, float)):
        return f"number {_js_number(value)}"
    return f"{type(value).__name__} {value}"


_ARTICLES = {
    "string": "a string",
    "number": "a finite number",
    "boolean": "true or false",
    "array": "a list",
    "object": "an object",
    "int": "a whole number",
}


def _reason(issue: Dict[str, Any], value: Any, secret: bool) -> str:
    shown = _SECRET_SHOWN if secret else _describe(value)
    code = issue["code"]
    if code == "invalid_type":
        article = _ARTICLES.get(issue["expected"], issue["expected"])
        return f"is required: set it to {article}" if value is _MISSING else f"must be {article}, not {shown}"
    if code == "too_small":
        if issue["origin"] == "array":
            return f"must hold at least {issue['minimum']} item(s)"
        if issue["origin"] == "string":
            return "must not be empty" if issue["message"].startswith("Too small") else issue["message"]
        return f"must be at least {_js_number(issue['minimum'])}, not {shown}"
    if code == "too_big":
        if issue["origin"] == "string":
            return f"must be at most {issue['maximum']} characters long"
        if issue["origin"] == "array":
            return f"must hold at most {issue['maximum']} items"
        return f"must be at most {_js_number(issue['maximum'])}, not {shown}"
    if code == "invalid_value":
        values = ", ".join(json.dumps(item, ensure_ascii=False) for item in issue["values"])
        return f"must be one of {values}, not {shown}"
    if code == "invalid_union":
        return f"has an unsupported form ({shown}): {issue['message']}"
    return issue["message"]


def _suggestion(key: str, known: Sequence[str]) -> str:
    lower = re.sub(r"[_-]", "", key.lower())
    match = next((name for name in known if re.sub(r"[_-]", "", name.lower()) == lower), None)
    return f' (did you mean "{match}"?)' if match else ""


def _issue_failures(kind: str, issue: Dict[str, Any], inputs: Dict[str, Any], secret_paths: List[str]) -> List[Tuple[List[Any], str]]:
    """An issue as (path, reason) failures, None for the path of the whole."""
    value, through_unknown = _value_at(inputs, issue["path"])
    if through_unknown:
        return []
    if issue["code"] == "unrecognized_keys":
        where = kind if not issue["path"] else f"{_format_path(issue['path'])} of {kind}"
        known = _KINDS[kind]["known_names"]
        return [
            ([*issue["path"], key], f"is not an input of {where}{_suggestion(key, known)}; remove it or fix its name")
            for key in issue["keys"]
        ]
    return [(issue["path"] or None, _reason(issue, value, _touches_secret(issue["path"], secret_paths)))]


def _for_engine(kind: str, path: Optional[List[Any]], reason: str, inputs: Dict[str, Any], secret_paths: List[str]) -> Tuple[str, str]:
    """A failure as the engine prints it, which looks up a top-level input's value only."""
    if path is None:
        return "", reason
    prop = _format_path(path)
    top = str(path[0])
    known = top in _KINDS[kind]["input_names"]
    holds_secret = top in _top_level(secret_paths)
    if len(path) == 1 and known and not holds_secret:
        return prop, reason
    value, _ = _value_at(inputs, path)
    shown = _SECRET_SHOWN if _touches_secret(path, secret_paths) else _describe(value)
    place = prop if not known or value is _MISSING or shown in reason else f"{prop} ({shown})"
    return (top if known and not holds_secret else ""), f"{place} {reason}"


def _is_asset(value: Any) -> bool:
    return isinstance(value, dict) and _SIG in value


def _is_file_asset(value: Any) -> bool:
    return _is_asset(value) and value[_SIG] == _ASSET_SIG and isinstance(value.get("path"), str)


def _contains_unknown(value: Any) -> bool:
    if isinstance(value, str):
        return value == _UNKNOWN
    if isinstance(value, (list, tuple)):
        return any(_contains_unknown(item) for item in value)
    if isinstance(value, dict):
        return any(_contains_unknown(item) for item in value.values())
    return False


def _short_path(message: str, path: str) -> str:
    """A long path inside a message keeps its start and its file name."""
    longer_than, kept = _SAMPLES["shortPath"]["longerThan"], _SAMPLES["shortPath"]["kept"]
    return message if len(path) <= longer_than else message.replace(path, f"{path[:kept]}…{path[-kept:]}")


def _sample_problem(path: str) -> Optional[str]:
    """As the provider's check: one stat of the file (following links), no read."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        problem: Optional[str] = "unreadable"
    else:
        problem = "notAFile" if not stat.S_ISREG(info.st_mode) else ("empty" if info.st_size == 0 else None)
    return None if problem is None else _short_path(_SAMPLES["problems"][problem].replace("{path}", path, 1), path)


def _sample_failures(kind: str, inputs: Dict[str, Any]) -> List[Tuple[List[Any], str]]:
    """The samples the provider could not upload: paths relative to the working directory, as its own."""
    field = _SAMPLES["field"]
    files = inputs.get(field) if kind == _SAMPLE_KIND else None
    if not isinstance(files, (list, tuple)):
        return []
    found = []
    for index, file in enumerate(files):
        if not _contains_unknown(file) and (isinstance(file, str) or _is_file_asset(file)):
            problem = _sample_problem(os.path.abspath(file if isinstance(file, str) else file["path"]))
            if problem is not None:
                found.append(([field, index], problem))
    found.extend(([field, index], _SAMPLES["otherAsset"]) for index, file in enumerate(files) if _is_asset(file) and not _is_file_asset(file))
    return found


def failures(kind: str, inputs: Dict[str, Any], marked_secret: Iterable[str] = ()) -> List[Tuple[str, str]]:
    """
    What the provider's check answers for these inputs (as the provider receives them: secrets
    unwrapped, FileAssets in the engine's form), as (property, reason) pairs in the engine's form.
    \`marked_secret\` names the top-level inputs whose values were secrets: never quoted.
    """
    facts = _KINDS[kind]
    secret_paths = [*facts["secret_paths"], *marked_secret]
    seen: List[Tuple[str, str]] = []
    found: List[Tuple[str, str]] = []
    for issue in _check(facts["rules"], inputs, []):
        for path, reason in _issue_failures(kind, issue, inputs, secret_paths):
            key = (_WHOLE if path is None else _format_path(path), reason)
            if key not in seen:
                seen.append(key)
                found.append(_for_engine(kind, path, reason, inputs, secret_paths))
    found.extend(_for_engine(kind, path, reason, inputs, secret_paths) for path, reason in _sample_failures(kind, inputs))
    return found


def _js_length(value: str) -> int:
    """A string's length as JavaScript counts it: UTF-16 code units."""
    return len(value.encode("utf-16-le")) // 2


def _js_text(value: Any) -> str:
    return _js_number(value) if _is_number(value) else str(value)


def _filled_in(template: str, values: Dict[str, Any]) -> str:
    """A template's {name}s filled in, in one pass (provider-log.ts, filledIn)."""
    return re.sub(r"\{([A-Za-z]+)\}", lambda found: _js_text(values[found[1]]) if found[1] in values else found[0], template)


_JS_WHITE_SPACE = re.compile(rf"[{_JS_TRIMMED}]")


def _sip_carrier_warnings(inputs: Dict[str, Any]) -> List[str]:
    data = _WARNINGS["SipCarrier"]
    says = data["says"]
    at = f'SipCarrier "{_js_text(inputs.get("name"))}"'
    said: List[str] = []
    say = lambda template, **values: said.append(_filled_in(template, {"at": at, **values}))
    if inputs.get("requiresRegister") is True and (not inputs.get("registerUsername") or not inputs.get("registerPassword")):
        say(says["registerIncomplete"])
    if isinstance(inputs.get("registerUsername"), str) and _JS_WHITE_SPACE.search(inputs["registerUsername"]):
        say(says["usernameWhiteSpace"])
    for key in ("registerSipRealm", "registerFromDomain"):
        if isinstance(inputs.get(key), str) and inputs[key].lower().startswith("sip:"):
            say(says["sipPrefix"], key=key)
    for key, cap in data["lengthCaps"].items():
        value = inputs.get(key)
        if isinstance(value, str) and _js_length(value) > cap:
            say(says["tooLong"], key=key, length=_js_length(value), cap=cap)
    seen = set()
    for index, gateway in enumerate(inputs.get("gateways") or []):
        protocol = gateway.get("protocol")
        if protocol is not None and protocol not in data["knownProtocols"]:
            say(says["unknownProtocol"], index=index, value=protocol, known=", ".join(data["knownProtocols"]))
        if _is_number(gateway.get("netmask")) and gateway["netmask"] == 0:
            say(says["netmaskZero"], index=index)
        address = gateway.get("ipv4")
        if address is None:
            continue
        if gateway.get("inbound") is not True and not _pattern(data["ipv4"]).search(address):
            say(says["hostname"], index=index, value=address)
        endpoint = f"{address}:{_js_text(gateway.get('port', data['defaultPort']))}"
        if endpoint in seen:
            say(says["sameEndpoint"], endpoint=endpoint)
        seen.add(endpoint)
    for index, number in enumerate(inputs.get("phoneNumbers") or []):
        phone = number.get("phoneNumber")
        if phone is not None and not _pattern(data["e164"]).search(phone):
            say(says["notE164"], index=index, value=phone)
    return said


def _voice_warnings(inputs: Dict[str, Any]) -> List[str]:
    data = _WARNINGS["Voice"]
    says = data["says"]
    at = f"Voice {json.dumps(inputs.get('name'), ensure_ascii=False)}"
    said: List[str] = []
    say = lambda template, **values: said.append(_filled_in(template, {"at": at, **values}))
    name = inputs.get("name")
    if isinstance(name, str) and _js_length(name) < data["minNameLength"]:
        say(says["shortName"], name=name, min=data["minNameLength"])
    provider_type = inputs.get("providerType")
    if provider_type is not None and provider_type not in data["providerTypes"]:
        say(says["providerType"], value=provider_type, known=", ".join(data["providerTypes"]))
    for key, (low, high) in data["ranges"].items():
        value = inputs.get(key)
        if _is_number(value) and (value < low or value > high):
            say(says["outOfRange"], key=key, value=value, min=low, max=high)
    return said


def _campaign_webhook_warnings(inputs: Dict[str, Any]) -> List[str]:
    says = _WARNINGS["CampaignWebhook"]["says"]
    at = f"CampaignWebhook for campaign {_js_text(inputs.get('campaignId'))}"
    said: List[str] = []
    say = lambda template, **values: said.append(_filled_in(template, {"at": at, **values}))
    if inputs["url"].startswith("http:"):
        say(says["plainUrl"], url=inputs["url"])
    if inputs.get("events") == []:
        say(says["noEvents"])
    advanced = inputs.get("advancedWebhook")
    if isinstance(advanced, dict):
        method = advanced.get("method")
        if advanced["url"].startswith("http:"):
            say(says["plainAdvancedUrl"])
        if method is not None and method != "GET":
            say(says["notGet"], method=method)
        if advanced.get("body") is not None and ("GET" if method is None else method).upper() == "GET":
            say(says["bodyOnGet"])
    return said


# Each kind's warnings, by kind.
_KIND_WARNINGS = {"Voice": _voice_warnings, "SipCarrier": _sip_carrier_warnings, "CampaignWebhook": _campaign_webhook_warnings}


def _without_marked_secrets(text: str, inputs: Dict[str, Any], marked_secret: Iterable[str]) -> str:
    """Each value the program made secret blanked, as written or JSON-escaped, whatever its case."""
    for key in marked_secret:
        value = inputs.get(key)
        if not isinstance(value, str) or value == "":
            continue
        for form in dict.fromkeys([value, json.dumps(value, ensure_ascii=False)[1:-1]]):
            text = re.sub(re.escape(form), "[secret]", text, flags=re.IGNORECASE)
    return text


def warnings(kind: str, inputs: Dict[str, Any], marked_secret: Iterable[str] = ()) -> List[str]:
    """The warnings \`pulumi preview\` prints for these inputs: only of inputs it takes, wholly known."""
    marked = list(marked_secret)
    if kind not in _KIND_WARNINGS or _contains_unknown(inputs) or failures(kind, inputs, marked):
        return []
    return [_without_marked_secrets(text, inputs, marked) for text in _KIND_WARNINGS[kind](inputs)]


def refusal(kind: str, name: str, inputs: Dict[str, Any], marked_secret: Iterable[str] = ()) -> Optional[str]:
    """The mocks' refusal of inputs \`pulumi preview\` would refuse, or None when the check passes."""
    found = failures(kind, inputs, marked_secret)
    if not found:
        return None
    # As the engine prints them: a reason names its own place unless it is a top-level input.
    lines = [f"  {reason}" if prop == "" or reason.startswith(prop) else f"  {prop} {reason}" for prop, reason in found]
    return f'{kind} "{name}" has inputs \`pulumi preview\` would refuse:\\n' + "\\n".join(lines)
`;
}
