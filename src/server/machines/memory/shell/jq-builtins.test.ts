/**
 * jq on the shell engine as jq 1.6 answers: builtins on inputs of a kind they have no rule for, compile errors,
 * number text, format strings, input parse errors, `-e`, user-defined functions and assignments through paths
 * (the just-bash patches `jq-wrong-kind-inputs`, `jq-undefined-names`, `jq-number-text`, `jq-string-formats`,
 * `jq-unparsable-input`, `jq-status-e-last-output`, `jq-user-def-closures`, `jq-updates-through-paths` and their
 * neighbours).
 */
import { describe, expect, it } from 'vitest';
import { runShell } from '../../../../../test/support/shell-run.ts';

describe('jq builtins on a kind of input they have no rule for', () => {
  it('fail with jq 1.6 message and status 5 instead of answering null or false', async () => {
    const script = [
      `jq '.[0]' <<< '{"a":1}'; echo "s=$?"`,
      `jq 'keys' <<< 5; echo "s=$?"`,
      `jq 'length' <<< true; echo "s=$?"`,
      `jq 'sort' <<< null; echo "s=$?"`,
      `jq 'test("x")' <<< 123; echo "s=$?"`,
      `jq 'has("a")' <<< '[1]'; echo "s=$?"`,
      `jq 'floor' <<< '"3.7"'; echo "s=$?"`,
      `jq 'min' <<< '{"a":1}'; echo "s=$?"`,
      `jq 'ascii_downcase' <<< 42; echo "s=$?"`,
      `jq 'del(.a)' <<< 5; echo "s=$?"`,
    ].join('; ');
    expect(await runShell(script)).toEqual({
      stdout: 's=5\n'.repeat(10),
      stderr: [
        'Cannot index object with number',
        'number (5) has no keys',
        'boolean (true) has no length',
        'null (null) cannot be sorted, as it is not an array',
        'number (123) cannot be matched, as it is not a string',
        'Cannot check whether array has a string key',
        'string ("3.7") number required',
        'object ({"a":1}) and object ({"a":1}) cannot be iterated over',
        'explode input must be a string',
        'Cannot index number with string "a"',
      ]
        .map((m) => `jq: error (at <stdin>:1): ${m}\n`)
        .join(''),
      exit: 0,
    });
  });

  it('the jq-defined builtins answer and fail through what they call: map, add, to_entries, join, first', async () => {
    const script = [
      `jq -c 'map(. * 10), add' <<< '{"a":1,"b":2}'`,
      `jq -c 'to_entries' <<< '["x"]'`,
      `jq -r 'join("-")' <<< '[1,null,"a",true]'`,
      `jq -c '[.[] | try map(.) catch .]' <<< '[null,"ab"]'`,
      `jq -c 'try join(",") catch .' <<< '[[1]]'`,
      `jq -c 'try first catch .' <<< '"abc"'`,
      `jq -c 'tostream' <<< '{"a":[1]}'`,
    ].join('; ');
    expect((await runShell(script)).stdout).toBe(
      '[10,20]\n3\n[{"key":0,"value":"x"}]\n1--a-true\n' +
        '["Cannot iterate over null (null)","Cannot iterate over string (\\"ab\\")"]\n' +
        '"string (\\"\\") and array ([1]) cannot be added"\n"Cannot index string with number"\n' +
        '[["a",0],1]\n[["a",0]]\n[["a"]]\n',
    );
  });
});

describe('jq compile errors', () => {
  it('an undefined variable or function, or a syntax error, is status 3 with no output', async () => {
    const script = `jq -n '$undefined'; echo "s=$?"; jq -n '[1] | ascii'; echo "s=$?"; jq -n '1 +' 2>/dev/null; echo "s=$?"; jq -n --arg a 1 '$a, (2 as $b | $b)'`;
    expect(await runShell(script)).toEqual({
      stdout: 's=3\ns=3\ns=3\n"1"\n2\n',
      stderr:
        'jq: error: $undefined is not defined at <top-level>, line 1:\n$undefined\njq: 1 compile error\n' +
        'jq: error: ascii/0 is not defined at <top-level>, line 1:\n[1] | ascii      \njq: 1 compile error\n',
      exit: 0,
    });
  });
});

describe('jq output and input', () => {
  it('numbers print as jq 1.6 prints them', async () => {
    const out = await runShell(`jq -nc '[1e1000, -0, 1e17, 1.5e16, 0.00001, 3.0]'; jq -nr '1e17 | tostring'`);
    expect(out.stdout).toBe('[1.7976931348623157e+308,-0,1e+17,15000000000000000,1e-05,3]\n1e+17\n');
  });

  it('format strings apply the format to each interpolated value', async () => {
    const script = `jq -r '@base64 "x\\(.a)y", @sh "echo \\(.b)", @uri "q=\\(.c)", @json "v=\\(.d)"' <<< '{"a":"hi","b":"it'"'"'s","c":"a b&c","d":[1]}'`;
    expect((await runShell(script)).stdout).toBe("xaGk=y\necho 'it'\\''s'\nq=a%20b%26c\nv=[1]\n");
  });

  it("the values before an input parse error run, then jq 1.7's report and status 5", async () => {
    const out = await runShell(`printf '{"a":1}\\n{"b":2}\\n{bad\\n' | jq -c .; echo "s=$?"`);
    expect(out.stdout).toBe('{"a":1}\n{"b":2}\ns=5\n');
    expect(out.stderr).toMatch(/^jq: parse error: .* at line \d+, column \d+\n$/);
  });

  it('-e takes its status from the last input run: 4 for no output, 1 for a last null or false', async () => {
    const script = `jq -e '.[]' <<< '[1,null]' >/dev/null; echo "s=$?"; jq -e 'empty' <<< 1; echo "s=$?"; printf '' | jq -e .; echo "s=$?"; jq -ne 1 >/dev/null; echo "s=$?"`;
    expect((await runShell(script)).stdout).toBe('s=1\ns=4\ns=0\ns=0\n');
  });
});

describe('jq functions and assignments', () => {
  it('a def takes filter arguments as closures and binds $params to each value', async () => {
    const script = `jq -nc 'def m(f): [.[] | f]; [1,2] | m(. + 1)'; jq -nc 'def f($a; g): [$a, a, g]; f(1; 2)'; jq -nc '[label $out | 1, break $out]'`;
    expect((await runShell(script)).stdout).toBe('[2,3]\n[1,1,2]\n[1]\n');
  });

  it('an assignment updates every path of its left side, with the operators\' errors', async () => {
    const script = [
      `jq -c '(.a[] | select(.n == 1) | .v) |= 9' <<< '{"a":[{"n":1,"v":0},{"n":2,"v":0}]}'`,
      `jq -c '(.. | numbers) |= . + 1' <<< '[1,"a",[2]]'`,
      `jq -c '.[] |= empty' <<< '[1,2,3]'`,
      `jq -c '.a += 1' <<< '{"a":"x"}'; echo "s=$?"`,
    ].join('; ');
    expect(await runShell(script)).toEqual({
      stdout: '{"a":[{"n":1,"v":9},{"n":2,"v":0}]}\n[2,"a",[3]]\n[2]\ns=5\n',
      stderr: 'jq: error (at <stdin>:1): string ("x") and number (1) cannot be added\n',
      exit: 0,
    });
  });
});

describe('jq regular expressions, slices, inputs and jq 1.6 counts', () => {
  it('match with "g" gives every match in codepoints; sub/gsub run the replacement on each match\'s named captures', async () => {
    const script = [
      `jq -c '[match("ab(.)"; "g") | [.offset, .captures[0].string]]' <<< '"😀 abc abd"'`,
      `jq -c '[match("(a)(x)?(?<n>b)"; "g")][1].captures' <<< '"ab ab"'`,
      `jq -c 'sub("(?<x>X)"; "<\\(.x)>"), gsub("(?<x>X)"; "<\\(.x)>"), gsub("a"; "$&")' <<< '"aXbX"'`,
      `jq -r 'gsub("(?<y>\\\\d{4})-(?<m>\\\\d{2})"; "\\(.m)/\\(.y)")' <<< '"2024-05 and 2023-01"'`,
      `jq -c 'gsub("(?<x>a)"; "\\(.x)\\(.x)", "Z")' <<< '"ab"'`,
    ].join('; ');
    expect(await runShell(script)).toEqual({
      stdout: '[[2,"c"],[6,"d"]]\n[{"offset":3,"length":1,"string":"a","name":null},{"offset":-1,"string":null,"length":0,"name":null},{"offset":4,"length":1,"string":"b","name":"n"}]\n"a<X>bX"\n"a<X>b<X>"\n"$&XbX"\n05/2024 and 01/2023\n"aab"\n"Zb"\n',
      stderr: '',
      exit: 0,
    });
  });

  it('a slice is assigned and updated as an array; -a escapes non-ASCII; input_filename; limit and error(null) as jq 1.6', async () => {
    const script = [
      `jq -c '.[1:3] = ["x"], (.[-2:] |= map(. + 1)), (.[5:9] = [0])' <<< '[1,2,3,4]'`,
      `jq -c '.[1:2] = 5' <<< '[1,2,3]'; echo "s=$?"`,
      `jq -ac . <<< '"ü😀"'`,
      `echo '{}' > o.json; jq -c '[input_filename, .]' o.json; echo 1 | jq input_filename; jq -n input_filename`,
      `jq -nc '[limit(0; 1, 2)], [limit(-1; 1, 2)], [.[]? | try error(null) catch "c"], [(1, 2) | try (if . == 2 then error(null) else . end) catch "c"]'`,
    ].join('; ');
    expect(await runShell(script)).toEqual({
      stdout: '[1,"x",4]\n[1,2,4,5]\n[1,2,3,4,0]\ns=5\n"\\u00fc\\ud83d\\ude00"\n["o.json",{}]\n"<stdin>"\nnull\n[1]\n[1,2]\n[]\n[1]\n',
      stderr: 'jq: error (at <stdin>:1): A slice of an array can only be assigned another array\n',
      exit: 0,
    });
  });

  it('input with no input left is the error "break", reported at <unknown> once the last input ended without a newline (jq 1.6)', async () => {
    const script = `printf '1 2' | jq -nc 'input, input, input'; echo "s=$?"; jq -nc 'input, input' <<< 1; jq -n input < /dev/null; jq -n 'try input catch .' < /dev/null`;
    expect(await runShell(script)).toEqual({
      stdout: '1\n2\ns=5\n1\n"break"\n',
      stderr: 'jq: error (at <unknown>): break\njq: error (at <stdin>:1): break\njq: error (at <stdin>:0): break\n',
      exit: 0,
    });
  });

  it('$__loc__ is the file and line it is written on', async () => {
    expect(await runShell(`jq -nc '$__loc__'; jq -nc '1 as $x |\n  {a: $__loc__.line}'`)).toEqual({ stdout: '{"file":"<top-level>","line":1}\n{"a":2}\n', stderr: '', exit: 0 });
  });

  it('an undefined name is shown on its own line, followed by spaces as many as its column (jq 1.6)', async () => {
    const r = await runShell(`jq -n '1 |\n  foo | bar'; jq -n '"foo" | foo'`);
    expect(r.stderr).toBe(
      'jq: error: foo/0 is not defined at <top-level>, line 2:\n  foo | bar  \njq: error: bar/0 is not defined at <top-level>, line 2:\n  foo | bar        \njq: 2 compile errors\n' +
        'jq: error: foo/0 is not defined at <top-level>, line 1:\n"foo" | foo        \njq: 1 compile error\n',
    );
  });
});

// Measured with jq 1.6 and checked against jq 1.7.1's sources (src/main.c, src/builtin.c, src/builtin.jq, src/jv.c).
describe('jq debug, halt, dates, input_line_number (jq-debug-stderr, jq-halt, jq-writes-debug-and-halt, …)', () => {
  it('debug writes ["DEBUG:",value] on stderr and passes its input on', async () => {
    expect(await runShell(`jq -nc '[1,{"a":"x"}] | debug | length'; echo '[1,2]' | jq -c '.[] | debug'; jq -nS '{"b":1,"a":2} | debug | .a'`)).toEqual({
      stdout: '2\n1\n2\n2\n',
      stderr: '["DEBUG:",[1,{"a":"x"}]]\n["DEBUG:",1]\n["DEBUG:",2]\n["DEBUG:",{"a":2,"b":1}]\n',
      exit: 0,
    });
  });
  it('halt and halt_error stop with their status, keeping the outputs made before; try does not catch them', async () => {
    const script = [
      `jq -n '"bye\\n" | halt_error'; echo "rc=$?"`,
      `jq -n '{"a":1} | halt_error'; echo "rc=$?"`,
      `jq -n '1, ("e" | halt_error(3)), 2'; echo "rc=$?"`,
      `jq -n '1, halt, 2'; echo "rc=$?"`,
      `jq -n 'try ("t\\n" | halt_error) catch "caught"'; echo "rc=$?"`,
      `jq -n '"x" | halt_error("a")'; echo "rc=$?"`,
    ].join('; ');
    expect(await runShell(script)).toEqual({
      stdout: 'rc=5\nrc=5\n1\nrc=3\n1\nrc=0\nrc=5\nrc=5\n',
      stderr: 'bye\n{"a":1}\net\njq: error (at <unknown>): string ("x") halt_error/1: number required\n',
      exit: 0,
    });
  });
  it('fromdateiso8601 and todateiso8601 are fromdate and todate', async () => {
    expect(await runShell(`jq -n '"2015-03-05T23:51:47Z" | fromdateiso8601, (fromdateiso8601 | todateiso8601)'; jq -n '"bad" | fromdateiso8601'`)).toEqual({
      stdout: '1425599507\n"2015-03-05T23:51:47Z"\n',
      stderr: 'jq: error (at <unknown>): date "bad" does not match format "%Y-%m-%dT%H:%M:%SZ"\n',
      exit: 5,
    });
  });
  it('input_line_number counts the lines read up to the end of the current value; a binding keeps the input queue', async () => {
    const script = `printf '1\\n\\n2\\n3' | jq -c 'input_line_number'; printf '[1,\\n2]\\n{"a":\\n1}\\n' | jq -c '[., input_line_number]'; jq -n input_line_number; echo '5 6' | jq -c '1 as $x | [$x, input]'`;
    expect(await runShell(script)).toEqual({ stdout: '1\n3\n3\n[[1,2],2]\n[{"a":1},4]\n0\n[1,6]\n', stderr: '', exit: 0 });
  });
});

describe('jq generators taken one output at a time (jq-yield-lazily)', () => {
  it('first, limit, isempty and label/break stop an infinite generator', async () => {
    const script = [
      `jq -nc 'first(range(10;infinite))'`,
      `jq -nc '[limit(3; 1 | repeat(.))], [limit(3; range(0; infinite; 2))], [limit(4; 1 | recurse(. * 2))], [limit(3; 1 | while(true; . * 3))]'`,
      `jq -nc 'label $out | foreach range(infinite) as $i (0; . + $i; if . > 10 then ., break $out else empty end)'`,
      `jq -nc 'isempty(range(infinite)), first(range(infinite) | select(. * . > 50))'`,
      `jq -nc 'first(inputs), input' <<< '1 2 3'`,
      `jq -nc '[limit(6; repeat(1, 2))]'`,
    ].join('; ');
    expect(await runShell(script)).toEqual({ stdout: '10\n[1,1,1]\n[0,2,4]\n[1,2,4,8]\n[1,3,9]\n15\nfalse\n8\n1\n2\n[1,2,1,2,1,2]\n', stderr: '', exit: 0 });
  });
  it('stops before an error a consumer does not reach, and keeps what it took before one it does', async () => {
    expect(await runShell(`jq -nc 'first(1, error("x")), [limit(2; 1, 2, error("x"))]'; jq -nc 'limit(3; 1, 2, error("x"))'; echo "rc=$?"`)).toEqual({
      stdout: '1\n[1,2]\n1\n2\nrc=5\n',
      stderr: 'jq: error (at <unknown>): x\n',
      exit: 0,
    });
  });
});

describe('jq object keys, string escapes, nan, tonumber, usage errors', () => {
  it('{$name} is {name: $name}; {$name: v} is a syntax error', async () => {
    const r = await runShell(`jq -nc --arg k v --argjson n 5 '{$k, $n, x: 1}'; jq -nc '[1,2] as [$a,$b] | {$a, b: {$b}}'; jq -nc '{$k: 1}' --arg k v 2>/dev/null; echo "rc=$?"`);
    expect(r.stdout).toBe('{"k":"v","n":5,"x":1}\n{"a":1,"b":{"b":2}}\nrc=3\n');
  });
  it('string literals take \\uXXXX, \\b, \\f and \\/; control characters and DEL are written as \\u00XX', async () => {
    const r = await runShell(String.raw`jq -n '"a\u0001b"'; jq -nc '["\u001f\u007f\b\f\/\u00e9"]'; jq -n '"\ud83d\ude00" | utf8bytelength'; echo '{"\u007f":1}' | jq -c 'tojson'`);
    expect(r).toEqual({ stdout: String.raw`"a\u0001b"
["\u001f\u007f\b\f/é"]
4
"{\"\\u007f\":1}"
`, stderr: '', exit: 0 });
  });
  it('orders nan below every number; == is false for nan and ignores key order', async () => {
    const r = await runShell(`jq -nc '[nan < 1, nan > 1, nan < nan, 1 > nan, nan == nan, nan == null, ({a:1,b:2} == {b:2,a:1}), infinite == infinite]'; jq -nc '[1,nan,-1] | sort, max, min'; jq -nc '[{a:1,b:2}] | index({b:2,a:1})'`);
    expect(r.stdout).toBe('[true,false,true,true,false,false,true,true]\n[null,-1,1]\n1\nnull\n0\n');
  });
  it('tonumber parses the string as JSON, with jq\'s messages', async () => {
    const script = `for s in ' 12 ' 1e3 nan 12abc abc '' true '1 2' tru; do jq -nc --arg s "$s" '$s | tonumber'; done 2>&1`;
    expect((await runShell(script)).stdout).toBe(
      [
        '12',
        '1000',
        'null',
        "jq: error (at <unknown>): Invalid numeric literal at EOF at line 1, column 5 (while parsing '12abc')",
        "jq: error (at <unknown>): Invalid numeric literal at EOF at line 1, column 3 (while parsing 'abc')",
        "jq: error (at <unknown>): Expected JSON value (while parsing '')",
        'jq: error (at <unknown>): string ("true") cannot be parsed as a number',
        "jq: error (at <unknown>): Unexpected extra JSON values (while parsing '1 2')",
        "jq: error (at <unknown>): Invalid literal at EOF at line 1, column 3 (while parsing 'tru')",
        '',
      ].join('\n'),
    );
  });
  it('a bad command line ends with jq 1.7\'s two help lines, status 2', async () => {
    expect(await runShell(`jq -n --argjson x '{bad' '$x'`)).toEqual({
      stdout: '',
      stderr: 'jq: invalid JSON text passed to --argjson\nUse jq --help for help with command-line options,\nor see the jq manpage, or online docs  at https://jqlang.github.io/jq\n',
      exit: 2,
    });
  });
});

describe('jq strings in code points', () => {
  it('counts, slices, splits and matches an emoji as one character, as jq walks UTF-8 text', async () => {
    const r = await runShell(`jq -nc '"😀é" | length'; jq -nc '"a😀bcd" | .[1:3], .[-2:]'; jq -nc '"a😀b" | split("")'; jq -nc '"a😀b" | sub("."; "x"; "g"), [match("."; "g").offset]'; jq -nc '"x😀y" | gsub("[^a-z]"; "_")'`);
    expect(r).toEqual({ stdout: '2\n"😀b"\n"cd"\n["a","😀","b"]\n"xxx"\n[0,1,2]\n"x_y"\n', stderr: '', exit: 0 });
  });
});

describe('jq numbers', () => {
  it('reads a number that starts with its decimal point', async () => {
    expect(await runShell(`jq -nc '.5, .25e1, [.5, 1]'; echo '{"a":[1,2]}' | jq -c '.a | .[1]'`)).toEqual({ stdout: '0.5\n2.5\n[0.5,1]\n2\n', stderr: '', exit: 0 });
  });
});

describe('jq builtins as jq 1.6 defines them', () => {
  it('keys sort_by, group_by, unique_by, min_by and max_by by every output of f; min_by keeps the first of equals, max_by the last', async () => {
    const r = await runShell(`jq -c 'sort_by(.a, .b), (group_by(.a, .b) | length), min_by(.a), max_by(.a)' <<< '[{"a":1,"b":2},{"a":1,"b":1},{"a":0,"b":5},{"a":1,"b":3}]'`);
    expect(r.stdout).toBe('[{"a":0,"b":5},{"a":1,"b":1},{"a":1,"b":2},{"a":1,"b":3}]\n4\n{"a":0,"b":5}\n{"a":1,"b":3}\n');
  });
  it('rounds as C (round half away from zero, nearbyint and rint half to even) and takes remainders of whole numbers', async () => {
    const r = await runShell(`jq -nc '[2.5,-2.5,3.5]|map(round), map(nearbyint), map(rint)'; jq -nc '5.9 % 2, (-7 % 3)'; jq -n '5 % 0.5'; echo "rc=$?"`);
    expect(r).toEqual({ stdout: '[3,-3,4]\n[2,-2,4]\n[2,-2,4]\n1\n-1\nrc=5\n', stderr: 'jq: error (at <unknown>): number (5) and number (0.5) cannot be divided (remainder) because the divisor is zero\n', exit: 0 });
  });
  it('trims only by a string, refuses what is not base64, dates a broken-down time, gives paths(f) once per true output', async () => {
    const r = await runShell(`jq -nc '"123"|ltrimstr(1), rtrimstr("3")'; jq -n '"@@@"|@base64d'; echo "rc=$?"; jq -n '"YWJjZ"|@base64d'; jq -nc '0|gmtime|todate'; echo '{"a":[1]}' | jq -c '[paths(..)]'`);
    expect(r.stdout).toBe('"123"\n"12"\nrc=5\n"1970-01-01T00:00:00Z"\n[["a"],["a"],["a",0]]\n');
    expect(r.stderr).toBe('jq: error (at <unknown>): string ("@@@") is not valid base64 data\njq: error (at <unknown>): string ("YWJjZ") trailing base64 byte found\n');
  });
});

describe("jq's dates, stderr, object keys and regex flags", () => {
  it("formats and parses dates with glibc's conversions in the C locale and UTC", async () => {
    const r = await runShell(`jq -nc '0|strftime("%c|%j|%p|%I|%e|%u|%V|%G|%a %b")'; jq -nc '"10 March 2020 13:05:09" | strptime("%d %B %Y %H:%M:%S")'; jq -nc '"2020-03-10 junk" | strptime("%Y-%m-%d")'; jq -nc '"x 2020" | strptime("%d %Y")'; echo "rc=$?"; jq -nc '0|localtime|todate'`);
    expect(r.stdout).toBe('"Thu Jan  1 00:00:00 1970|001|AM|12| 1|4|01|1970|Thu Jan"\n[2020,2,10,13,5,9,2,69]\n[2020,2,10,0,0,0,2,69," junk"]\nrc=5\n"1970-01-01T00:00:00Z"\n');
    expect(r.stderr).toBe('jq: error (at <unknown>): date "x 2020" does not match format "%d %Y"\n');
  });
  it('writes stderr, interpolates object keys, takes the x, s and p flags and captures every match with g', async () => {
    const r = await runShell(`jq -nc '"x" | stderr'; jq -nc '"k" as $k | {"\\\\($k)2":2}'; jq -c '[capture("(?<d>[0-9])"; "g")], [capture("(?<d>z)")], test("1 b"; "x")' <<< '"a1b2"'; jq -c 'test("a.b"; "s"), test("a.b"; "p")' <<< '"a\\nb"'`);
    expect(r).toEqual({ stdout: '"x"\n{"k2":2}\n[{"d":"1"},{"d":"2"}]\n[]\ntrue\nfalse\ntrue\n', stderr: '"x"', exit: 0 });
  });
});
