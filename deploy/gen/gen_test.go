package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"longhaul/internal/rendered"
)

const root = "../.."

func load(t *testing.T) *Description {
	t.Helper()
	d, err := Load(filepath.Join(root, descriptionFile))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestTheCommittedFilesAreTheirRendering(t *testing.T) {
	files, err := render(root)
	if err != nil {
		t.Fatal(err)
	}
	stale, err := rendered.Sync(root, files, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(stale) > 0 {
		t.Fatalf("%v differ from deploy/services.yaml's rendering: run `go run ./deploy/gen`", stale)
	}
}

// A heap is one edit: the unit's command, its note and the native stack's default all follow.
func TestASettingIsOneEditForTheUnitsAndTheStack(t *testing.T) {
	d := load(t)
	for i := range d.Settings {
		if d.Settings[i].Name == "LONGHAUL_KAFKA_HEAP_OPTS" {
			d.Settings[i].Default = "-Xmx777m -Xms222m"
		}
	}
	files := d.Render()
	unit := files["deploy/systemd/longhaul-kafka.service"]
	if !strings.Contains(unit, "ExecStart=/usr/lib/jvm/java-17-openjdk-amd64/bin/java -Xmx777m -Xms222m \\\n") {
		t.Errorf("the Kafka unit does not run the new heap:\n%s", unit)
	}
	if !strings.Contains(unit, "# heap -Xmx777m -Xms222m (LONGHAUL_KAFKA_HEAP_OPTS)") {
		t.Errorf("the Kafka unit's note does not name the new heap:\n%s", unit)
	}
	if env := files[settingsFile]; !strings.Contains(env, `: "${LONGHAUL_KAFKA_HEAP_OPTS:=-Xmx777m -Xms222m}"`) {
		t.Errorf("services.env does not default to the new heap:\n%s", env)
	}
	for name, text := range files {
		if strings.Contains(text, "{{") {
			t.Errorf("%s keeps a placeholder", name)
		}
	}
}

func TestTheTargetWantsEveryCentralServiceAndNoHostOne(t *testing.T) {
	d := load(t)
	target := d.TargetUnit()
	for i := range d.Services {
		s := &d.Services[i]
		wanted := strings.Contains(target, "Wants="+unitName(s.Name)+"\n")
		if s.Socket != nil { // started by its socket, which the target wants instead
			wanted = strings.Contains(target, "Wants="+socketName(s.Name)+"\n") && !wanted
		}
		unit := d.Unit(s)
		if wanted == s.Host {
			t.Errorf("%s: host %v, wanted by the target %v", s.Name, s.Host, wanted)
		}
		if strings.Contains(unit, "PartOf=longhaul.target") == s.Host || strings.Contains(unit, "WantedBy=multi-user.target") != s.Host {
			t.Errorf("%s (host %v) is installed as:\n%s", s.Name, s.Host, unit)
		}
	}
}

// A relay serves a port of another service's private network: it starts at its socket's first
// connection, in that service's namespace, and the socket only once its condition holds.
func TestARelayServesFromItsServicesNetworkAtItsSocketsFirstConnection(t *testing.T) {
	d := load(t)
	var relay, influx *Service
	for i := range d.Services {
		switch d.Services[i].Name {
		case "influxdb-http":
			relay = &d.Services[i]
		case "influxdb":
			influx = &d.Services[i]
		}
	}
	if relay == nil || influx == nil {
		t.Fatal("no influxdb-http or influxdb service")
	}
	for _, line := range []string{
		"Requires=longhaul-influxdb.service longhaul-influxdb-http.socket",
		"After=network-online.target longhaul-influxdb.service longhaul-influxdb-http.socket",
		"JoinsNamespaceOf=longhaul-influxdb.service",
		"PrivateNetwork=yes",
		"ExecStart=/usr/lib/systemd/systemd-socket-proxyd --connections-max=1024 127.0.0.1:8086",
	} {
		if !strings.Contains(d.Unit(relay), "\n"+line+"\n") {
			t.Errorf("the relay's unit lacks %s:\n%s", line, d.Unit(relay))
		}
	}
	if !strings.Contains(d.Unit(influx), "\nPrivateNetwork=yes\n") {
		t.Errorf("InfluxDB's unit has a network of the host's:\n%s", d.Unit(influx))
	}
	socket := d.SocketUnit(relay)
	for _, line := range []string{"ListenStream=127.0.0.1:8086", "ConditionPathExists=/var/lib/longhaul/influxdb/meta/longhaul-admin", "PartOf=longhaul.target"} {
		if !strings.Contains(socket, "\n"+line+"\n") {
			t.Errorf("the socket lacks %s:\n%s", line, socket)
		}
	}
}

// Every unit has the whole sandbox; the JVMs alone go without W^X memory and the call filter.
func TestEveryUnitIsSandboxedAndOnlyTheJVMsRunWithoutTheFilter(t *testing.T) {
	d := load(t)
	for i := range d.Services {
		s := &d.Services[i]
		unit := d.Unit(s)
		for _, line := range append(append([]string{}, hardening...), hardeningAfterCapabilities...) {
			if !strings.Contains(unit, "\n"+line+"\n") {
				t.Errorf("%s lacks %s", s.Name, line)
			}
		}
		if filtered := strings.Contains(unit, "\nSystemCallFilter=@system-service\n"); filtered == s.JVM {
			t.Errorf("%s: jvm %v, system-call filter %v", s.Name, s.JVM, filtered)
		}
	}
}

func TestABadDescriptionNamesItsFileLineAndField(t *testing.T) {
	good, err := os.ReadFile(filepath.Join(root, descriptionFile))
	if err != nil {
		t.Fatal(err)
	}
	text := string(good)
	lineOf := func(s string) int { return strings.Count(text[:strings.Index(text, s)], "\n") + 1 }
	cases := []struct {
		name, old, new string
		want           string
	}{
		{"an unknown field", "    jvm: true\n", "    jvm: true\n    heap: 1g\n", "field heap not found"},
		{"a size without a unit", "      max: 1G\n", "      max: 1024\n", `services[0].memory.max: "1024" is not a size`},
		{"a dependency on no service", "after: [kafka, influxdb]\n", "after: [kafka, influx]\n", `services[3].after[1]: "influx" is not another service`},
		{"a placeholder of no setting", "{{LONGHAUL_KAFKA_HEAP_OPTS}}\"", "{{LONGHAUL_KAFKA_HEAP}}\"", "services[0].command[0]: {{LONGHAUL_KAFKA_HEAP}} names no setting"},
		{"a service without a user", "    user: longhaul-influxdb\n", "", "services[1].user: is required"},
		{"a setting twice", "  - name: LONGHAUL_KAFKA_PORT_STEP\n", "  - name: LONGHAUL_KAFKA_PORT\n", "settings[8].name: LONGHAUL_KAFKA_PORT is set twice"},
		{"a default the shell would expand", "default: 1024m\n", "default: $(id)\n", "a default is a literal"},
		{"a placed line without its value", "line: '    jobmanager.memory.process.size: {}'", "line: '    jobmanager.memory.process.size: 1024m'", `settings[25].rendered_in[0].line: "    jobmanager.memory.process.size: 1024m" has not one {}`},
		{"a relay into a service with no private network", "    joins_network_of: influxdb\n", "    joins_network_of: kafka\n", `services[2].joins_network_of: "kafka" is not another service of this description with a private_network`},
		{"a socket listening nowhere", "      listen: 127.0.0.1:{{LONGHAUL_INFLUX_PORT}}\n", "      listen: \"\"\n", "services[2].socket.listen: is required"},
		{"a placement outside the repository", "file: docker-compose.yml\n", "file: ../docker-compose.yml\n", `settings[23].rendered_in[0].file: "../docker-compose.yml" is not a file of the repository`},
		{"a setting listed in no list", "listed_in: [compose-alerting, ", "listed_in: [compose-alert, ", `settings[33].listed_in[0]: "compose-alert" is no list of this description`},
		{"a list's line without the setting's name", "line: '# {name}={value}'", "line: '# NAME={value}'", `lists[2].line: "# NAME={value}" names no setting`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if !strings.Contains(text, c.old) {
				t.Fatalf("the description has no %q", c.old)
			}
			bad := strings.Replace(text, c.old, c.new, 1)
			_, err := Parse("deploy/services.yaml", []byte(bad))
			if err == nil {
				t.Fatal("accepted")
			}
			if !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "deploy/services.yaml:") {
				t.Fatalf("error %q does not name the file and say %q", err, c.want)
			}
			// where the line is known (not for a missing field), it is the changed one
			if c.new != "" && !strings.Contains(c.want, "not found") {
				want := "deploy/services.yaml:" + strconv.Itoa(lineOf(c.old)) + ":"
				if !strings.HasPrefix(err.Error(), want) {
					t.Errorf("error %q is not at line %s", err, want)
				}
			}
		})
	}
}

// A heap is one edit for the hand-written deployments too: each line its rendered_in names
// follows, and nothing else in those files changes.
func TestASettingIsOneEditForComposeAndKubernetes(t *testing.T) {
	d := load(t)
	for i := range d.Settings {
		if d.Settings[i].Name == "LONGHAUL_FLINK_TM_PROCESS_SIZE" {
			d.Settings[i].Default = "3072m"
		}
	}
	read := func(name string) ([]byte, error) { return os.ReadFile(filepath.Join(root, name)) }
	files, err := d.RenderPlacements(read)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"docker-compose.yml":                        "\n    taskmanager.memory.process.size: 3072m\n",
		"deploy/kubernetes/flink/link-monitor.yaml": "\n      memory: 3072m  # taskmanager.memory.process.size: LONGHAUL_FLINK_TM_PROCESS_SIZE of deploy/services.yaml\n",
	} {
		old, err := read(name)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(files[name], want) {
			t.Errorf("%s does not carry the new size:\n%s", name, files[name])
		}
		if a, b := strings.Count(string(old), "\n"), strings.Count(files[name], "\n"); a != b || len(old)-len(files[name]) != len("2048m")-len("3072m") {
			t.Errorf("%s changed beyond the one value: %d lines before, %d after", name, a, b)
		}
	}
}

// A placed line must find exactly one line of its file: none (the file was edited) or two (the
// line says too little) is refused, naming the file and the setting.
func TestAPlacedLineMatchingNoneOrTwoLinesIsRefused(t *testing.T) {
	file := "a line\n  size: 1m\n  other: 2m  # a note\n  other: 3m  # a note\n"
	read := func(string) ([]byte, error) { return []byte(file), nil }
	for line, want := range map[string]string{
		"  size: {}":            "",
		"  width: {}":           `f.yaml: LONGHAUL_X: no line reads "  width: {}"`,
		"  other: {}  # a note": `f.yaml: LONGHAUL_X: lines 3 and 4 both read "  other: {}  # a note"`,
	} {
		d := &Description{Settings: []Setting{{Name: "LONGHAUL_X", Default: "9m", RenderedIn: []Placement{{File: "f.yaml", Line: line}}}}}
		got, err := d.RenderPlacements(read)
		switch {
		case want == "" && (err != nil || got["f.yaml"] != strings.Replace(file, "size: 1m", "size: 9m", 1)):
			t.Errorf("%q: %v\n%s", line, err, got["f.yaml"])
		case want != "" && (err == nil || err.Error() != want):
			t.Errorf("%q: error %v, want %q", line, err, want)
		}
	}
}

// A new setting every deployment hands Alertmanager is one edit: listed in the three lists, it
// gets a line in compose's environment, the Kubernetes ConfigMap and .env.example.
func TestANewListedSettingIsOneEditForEveryDeployment(t *testing.T) {
	d := load(t)
	d.Settings = append(d.Settings, Setting{Name: "LONGHAUL_ALERT_RESOLVE_TIMEOUT", Default: "5m",
		ListedIn: []string{"compose-alerting", "kubernetes-alerting", "env-example-alerting"}})
	read := func(name string) ([]byte, error) { return os.ReadFile(filepath.Join(root, name)) }
	files, err := d.RenderPlacements(read)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"docker-compose.yml":                       "      LONGHAUL_ALERT_REPEAT_INTERVAL: ${LONGHAUL_ALERT_REPEAT_INTERVAL:-4h}\n      LONGHAUL_ALERT_RESOLVE_TIMEOUT: ${LONGHAUL_ALERT_RESOLVE_TIMEOUT:-5m}\n      # end of",
		"deploy/kubernetes/operator/alerting.yaml": "  LONGHAUL_ALERT_RESOLVE_TIMEOUT: \"5m\"\n  # end of",
		".env.example":                             "# LONGHAUL_ALERT_RESOLVE_TIMEOUT=5m\n# end of",
	} {
		old, err := read(name)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(files[name], want) || strings.Count(files[name], "\n") != strings.Count(string(old), "\n")+1 {
			t.Errorf("%s: not one more line, before the list's end:\n%s", name, files[name])
		}
	}
}

// A list's marks must stand once each, the beginning first, or the file is refused, naming it.
func TestAListWhoseMarksAreMissingDoubledOrSwappedIsRefused(t *testing.T) {
	b, e := "# "+listBegin+"l", "# "+listEnd+"l"
	for file, want := range map[string]string{
		"a\n" + b + "\nold\n" + e + "\nz\n": "",
		"a\n" + e + "\n":                    "f: list l: no line ends with \"" + listBegin + "l\"",
		b + "\n":                            "f: list l: no line ends with \"" + listEnd + "l\"",
		b + "\n" + b + "\n" + e + "\n":      "f: list l: lines 1 and 2 both end with \"" + listBegin + "l\"",
		e + "\n" + b + "\n":                 "f: list l: the end of the list (line 1) comes before its beginning (line 2)",
	} {
		d := &Description{Lists: []List{{Name: "l", File: "f", Line: "{name}={value}"}},
			Settings: []Setting{{Name: "LONGHAUL_X", Default: "1", ListedIn: []string{"l"}}, {Name: "LONGHAUL_Y", Default: "2"}}}
		got, err := d.RenderPlacements(func(string) ([]byte, error) { return []byte(file), nil })
		switch {
		case want == "" && (err != nil || got["f"] != "a\n"+b+"\nLONGHAUL_X=1\n"+e+"\nz\n"):
			t.Errorf("%q: %v\n%s", file, err, got["f"])
		case want != "" && (err == nil || err.Error() != want):
			t.Errorf("%q: error %v, want %q", file, err, want)
		}
	}
}
