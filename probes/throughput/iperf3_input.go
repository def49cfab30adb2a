package throughput

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"longhaul/probes/probekit"
)

// decodeIperf3 reads what iperf3 printed, by its format class:
//
//   - `-J`: one JSON object (the client's, or the server's own log with `iperf3 -s -J`);
//   - `--json-stream` (3.17+): one JSON event per line, {"event": "start"|"interval"|
//     "error"|"end"|…, "data": …};
//   - either one as saved from a terminal: CRLF line ends and the "^C" the terminal echoes
//     when the run is interrupted (it lands at the start of a line, where JSON never has it);
//   - either one cut short (a copy or a disk that stopped, a killed --json-stream run): the
//     complete intervals are kept and the output says where it stopped (o.cut);
//   - either one after the command line that printed it ("$ iperf3 -c host -J"), blanked;
//   - iperf3's text output (no -J): refused, saying to run it with -J.
func decodeIperf3(in []byte) (*i3Output, error) {
	in = scrubTerminal(in)
	first := firstNonSpace(in)
	if first < 0 {
		return nil, fmt.Errorf("empty input: no iperf3 JSON")
	}
	if in[first] != '{' {
		in, first = skipCommandLine(in, first)
	}
	if in[first] != '{' {
		return nil, textOutput(in, first)
	}
	o := &i3Output{}
	if bytes.HasPrefix(in[first:], []byte(`{"event"`)) {
		return o, decodeStream(in, o)
	}
	return o, decodeDocument(in, o)
}

// scrubTerminal blanks what a terminal adds at the start of a line: the echo of an
// interrupt, suspend or quit key (^C, ^Z, ^\). Offsets are kept, so errors still point into
// the input; the input is copied only when there is something to blank.
func scrubTerminal(in []byte) []byte {
	var out []byte
	for i := 0; i < len(in); {
		buf := in
		if out != nil {
			buf = out
		}
		if i+1 < len(in) && in[i] == '^' && (in[i+1] == 'C' || in[i+1] == 'Z' || in[i+1] == '\\') && lineStart(buf, i) {
			if out == nil {
				out = append([]byte(nil), in...)
			}
			out[i], out[i+1] = ' ', ' '
			i += 2
			continue
		}
		j := bytes.IndexByte(in[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
	}
	if out == nil {
		return in
	}
	return out
}

// lineStart: only blanks (or an earlier ^C) precede offset i on its line.
func lineStart(in []byte, i int) bool {
	for k := i - 1; k >= 0 && in[k] != '\n'; k-- {
		if in[k] != ' ' && in[k] != '\t' && in[k] != '\r' {
			return false
		}
	}
	return true
}

// skipCommandLine blanks the command line an output begins with (offsets kept, the input
// copied), and returns where the output starts after it.
func skipCommandLine(in []byte, first int) ([]byte, int) {
	end := bytes.IndexByte(in[first:], '\n')
	if end < 0 || end > probekit.MaxLineBytes || !probekit.CommandLine(string(in[first:first+end]), "iperf3") {
		return in, first
	}
	out := append([]byte(nil), in...)
	for i := first; i < first+end; i++ {
		out[i] = ' '
	}
	if next := firstNonSpace(out); next >= 0 {
		return out, next
	}
	return in, first
}

func firstNonSpace(in []byte) int {
	for i, c := range in {
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			return i
		}
	}
	return -1
}

// textOutput explains an input that is not JSON: iperf3's text output, or something else.
func textOutput(in []byte, off int) error {
	head := in[off:min(len(in), off+4096)]
	for _, mark := range []string{"Connecting to host", "Server listening on", "[ ID] Interval", "iperf Done", "iperf3: error", "Accepted connection from"} {
		if bytes.Contains(head, []byte(mark)) {
			return posError(in, int64(off), "iperf3's text output, not its JSON: run iperf3 with -J (or --json-stream, 3.17+) and import that")
		}
	}
	return posError(in, int64(off), "not iperf3 JSON output (iperf3 -J or --json-stream)")
}

// posError locates an error at byte offset off of in, "line L col C: MSG, near "…"", with
// a short snippet from there: bounded whatever the input.
func posError(in []byte, off int64, format string, args ...any) error {
	off = max(0, min(off, int64(len(in))))
	before := in[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := int(off) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	rest := in[off:min(int64(len(in)), off+256)]
	if i := bytes.IndexAny(rest, "\r\n"); i >= 0 {
		rest = rest[:i]
	}
	msg := probekit.Bounded(fmt.Sprintf(format, args...))
	if len(rest) == 0 {
		return fmt.Errorf("line %d col %d: %s, at the end of the input", line, col, msg)
	}
	return fmt.Errorf("line %d col %d: %s, near %q", line, col, msg, probekit.Snippet(string(rest)))
}

// jsonError explains a decoding error of the value at path whose text starts at byte base of
// in: syntax by line and column, a wrong type by JSON path (and where it is).
func jsonError(in []byte, base int64, path string, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	var d decided
	switch {
	case errors.As(err, &d):
		return d.error
	case errors.As(err, &se):
		// Offset counts the bad byte for Decode, not for Token: point at the byte named.
		off := base + se.Offset - 1
		if c, ok := badChar(se.Error()); ok && off >= 0 && off+1 < int64(len(in)) && in[off] != c && in[off+1] == c {
			off++
		}
		return posError(in, off, "invalid JSON: %s", se.Error())
	case errors.As(err, &te):
		p := joinPath(path, te.Field)
		if p == "" {
			p = "(top level)"
		}
		return probekit.PathError(p, "got %s, want %s", probekit.Snippet(te.Value), te.Type)
	}
	return posError(in, base, "invalid JSON at %s: %v", path, err)
}

// badChar is the byte an "invalid character 'x' …" message names.
func badChar(msg string) (byte, bool) {
	const p = "invalid character '"
	i := strings.Index(msg, p)
	if i < 0 || len(msg) < i+len(p)+2 || msg[i+len(p)+1] != '\'' {
		return 0, false
	}
	return msg[i+len(p)], true
}

func joinPath(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "." + b
}

// truncated is an error of a value the input ends inside.
func truncated(err error) bool {
	return errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF)
}

// decodeDocument reads the -J object section by section, so that an output cut short keeps
// its complete intervals: start, intervals one by one, end, error. A section the input ends
// inside is dropped whole.
func decodeDocument(in []byte, o *i3Output) error {
	dec := json.NewDecoder(bytes.NewReader(in))
	if _, err := dec.Token(); err != nil { // the '{'
		return jsonError(in, 0, "", err)
	}
	for {
		tok, err := dec.Token()
		if truncated(err) {
			return o.cutShort(in, "the top-level object")
		}
		if err != nil {
			return jsonError(in, 0, "", err)
		}
		if d, ok := tok.(json.Delim); ok && d == '}' {
			break
		}
		key, _ := tok.(string)
		switch key {
		case "start":
			var s i3Start
			if err = dec.Decode(&s); err == nil {
				o.Start, o.haveStart = s, true
			}
		case "intervals":
			err = decodeIntervals(dec, o)
		case "end":
			var e i3End
			if err = dec.Decode(&e); err == nil {
				o.End, o.endRead = e, true
			}
		case "error":
			err = dec.Decode(&o.Error)
		default:
			err = skipValue(dec)
		}
		if truncated(err) {
			return o.cutShort(in, key)
		}
		if err != nil {
			return jsonError(in, 0, key, err)
		}
	}
	if off := dec.InputOffset(); firstNonSpace(in[off:]) >= 0 {
		return posError(in, off+int64(firstNonSpace(in[off:])), "more than one JSON value after iperf3's output (import one run per file)")
	}
	return nil
}

func decodeIntervals(dec *json.Decoder, o *i3Output) error {
	tok, err := dec.Token()
	if err != nil || tok == nil { // "intervals": null
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return decided{probekit.PathError("intervals", "got %s, want an array", probekit.Snippet(fmt.Sprint(tok)))}
	}
	for dec.More() {
		var iv i3Interval
		if err := dec.Decode(&iv); err != nil {
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) {
				return decided{probekit.PathError(joinPath(fmt.Sprintf("intervals[%d]", len(o.Intervals)), te.Field), "got %s, want %s", probekit.Snippet(te.Value), te.Type)}
			}
			return err
		}
		o.Intervals = append(o.Intervals, iv)
	}
	_, err = dec.Token() // the ']'
	return err
}

// decided is an error already explained for the user.
type decided struct{ error }

// skipValue reads a value the parser has no use for (cookie, system_info, server_output…).
func skipValue(dec *json.Decoder) error {
	var skip json.RawMessage
	return dec.Decode(&skip)
}

// cutShort records that the output ends inside section, after the intervals read so far. An
// output cut before its first complete interval has nothing worth importing.
func (o *i3Output) cutShort(in []byte, section string) error {
	if o.endRead {
		return nil // only what follows the totals is missing (the closing brace, "error")
	}
	if !o.haveStart || len(o.Intervals) == 0 {
		return posError(in, int64(len(in)), "truncated JSON: the output is cut short before its first complete interval, nothing to import")
	}
	switch section {
	case "intervals":
		section = fmt.Sprintf("interval %d", len(o.Intervals)+1)
	case "end":
		section = "its end section"
	}
	o.cut = fmt.Sprintf("iperf3's output is cut short in %s, after %d complete intervals: the run's totals are unknown", section, len(o.Intervals))
	return nil
}

// maxStreamLine bounds one --json-stream event: the end event of 128 streams is about 100 KB.
const maxStreamLine = 4 << 20

// decodeStream reads --json-stream events line by line. Events it has no use for
// (server_output_json, server_output_text, any later kind) are skipped; so is what follows
// the end event (3.19's --json-stream-full-output prints the whole -J object after it). A
// last line the input ends inside is a run cut short; so is a stream without its end event
// (the client was killed).
func decodeStream(in []byte, o *i3Output) error {
	ended := false
	for off := 0; off < len(in); {
		end := bytes.IndexByte(in[off:], '\n')
		next := off + end + 1
		if end < 0 {
			end, next = len(in)-off, len(in)
		}
		line := in[off : off+end]
		base := int64(off)
		off = next
		if len(line) > maxStreamLine {
			return posError(in, base, "a line longer than %d MB: not an iperf3 --json-stream event", maxStreamLine>>20)
		}
		t := bytes.TrimSpace(line)
		if len(t) == 0 {
			continue
		}
		base += int64(bytes.Index(line, t[:1]))
		if ended {
			if bytes.HasPrefix(t, []byte(`{"event":"start"`)) {
				return posError(in, base, "a second iperf3 run starts here: import one run per file")
			}
			break
		}
		var ev struct {
			Event string          `json:"event"`
			Data  json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal(t, &ev); err != nil {
			var se *json.SyntaxError
			if errors.As(err, &se) && se.Offset >= int64(len(t)) && firstNonSpace(in[off:]) < 0 {
				return o.cutShort(in, "the last --json-stream event")
			}
			return jsonError(in, base, "", err)
		}
		if err := o.event(in, base, ev.Event, ev.Data); err != nil {
			return err
		}
		ended = ev.Event == "end"
	}
	if !ended {
		return o.cutShort(in, "the --json-stream events (no end event)")
	}
	return nil
}

func (o *i3Output) event(in []byte, base int64, event string, data json.RawMessage) error {
	var err error
	switch event {
	case "start":
		if err = json.Unmarshal(data, &o.Start); err == nil {
			o.haveStart = true
		}
	case "interval":
		var iv i3Interval
		if err = json.Unmarshal(data, &iv); err == nil {
			o.Intervals = append(o.Intervals, iv)
		}
		event = fmt.Sprintf("intervals[%d]", len(o.Intervals))
	case "error":
		err = json.Unmarshal(data, &o.Error)
	case "end":
		if err = json.Unmarshal(data, &o.End); err == nil {
			o.endRead = true
		}
	case "":
		return posError(in, base, "not an iperf3 --json-stream event (no \"event\")")
	}
	if err != nil {
		return jsonError(in, base, event, err)
	}
	return nil
}
