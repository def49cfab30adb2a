package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"
)

// Description is deploy/services.yaml: the native stack's shared settings, the central target and
// every service a deployment runs.
type Description struct {
	Settings []Setting `yaml:"settings"`
	Lists    []List    `yaml:"lists"`
	Target   Target    `yaml:"target"`
	Services []Service `yaml:"services"`
}

// Setting is one default of the native stack (rendered into scripts/stack/services.env), or the
// start of a section of them (Section set, nothing else).
type Setting struct {
	Section    string      `yaml:"section"`
	Name       string      `yaml:"name"`
	Default    string      `yaml:"default"`
	Note       string      `yaml:"note"`
	RenderedIn []Placement `yaml:"rendered_in"` // the lines of hand-written files that carry its value
	ListedIn   []string    `yaml:"listed_in"`   // the lists (of lines in hand-written files) it has a line in
}

// Target is longhaul.target: every service that is not Host, wanted in the description's order.
type Target struct {
	About       string `yaml:"about"`
	Description string `yaml:"description"`
}

// Service is one daemon, rendered as deploy/systemd/longhaul-<Name>.service.
type Service struct {
	Name            string       `yaml:"name"`
	Host            bool         `yaml:"host"` // on hosts of its own (WantedBy=multi-user.target), not in the target
	About           string       `yaml:"about"`
	Description     string       `yaml:"description"`
	Documentation   string       `yaml:"documentation"`
	Wants           []string     `yaml:"wants"` // other services, by name
	After           []string     `yaml:"after"`
	User            string       `yaml:"user"`
	Credentials     []Credential `yaml:"credentials"`
	EnvironmentFile bool         `yaml:"environment_file"`
	Environment     []Env        `yaml:"environment"`
	Command         []string     `yaml:"command"` // ExecStart, one continuation line each
	JVM             bool         `yaml:"jvm"`     // exits 143 on SIGTERM; no W^X memory, no system-call filter
	StopNote        string       `yaml:"stop_note"`
	State           *Directory   `yaml:"state"`
	Logs            string       `yaml:"logs"`
	Runtime         string       `yaml:"runtime"`
	OpenFiles       *Limit       `yaml:"open_files"`
	Capabilities    *Capability  `yaml:"capabilities"`
	Memory          Limit        `yaml:"memory"`
	PrivateNetwork  *Noted       `yaml:"private_network"`  // a network namespace of its own, only its loopback
	JoinsNetworkOf  string       `yaml:"joins_network_of"` // another service's private network
	Socket          *Socket      `yaml:"socket"`           // a port the supervisor opens and hands it
}

// Noted is a setting that is on when given, with the comment that says why.
type Noted struct {
	Note string `yaml:"note"`
}

// Socket is longhaul-<name>.socket: systemd listens on Listen and starts the service at the first
// connection, handing it the socket; the socket starts only once Condition's path exists.
type Socket struct {
	Listen    string `yaml:"listen"`
	Condition string `yaml:"condition"`
	Note      string `yaml:"note"`
}

// Credential is a secret of /etc/longhaul/secrets the unit loads (LoadCredential=).
type Credential struct {
	Name string `yaml:"name"`
	Note string `yaml:"note"`
}

// Env is one Environment= line (one or more NAME=value words).
type Env struct {
	Set  string `yaml:"set"`
	Note string `yaml:"note"`
}

// Directory is a StateDirectory= (under /var/lib), with its mode when not systemd's 0755.
type Directory struct {
	Dir  string `yaml:"dir"`
	Mode string `yaml:"mode"`
	Note string `yaml:"note"`
}

// Limit is a resource limit (MemoryMax=, LimitNOFILE=).
type Limit struct {
	Max   string `yaml:"max"`
	Limit string `yaml:"limit"`
	Note  string `yaml:"note"`
}

// Capability is what a service holds ambient (and bounds itself to); without one, none.
type Capability struct {
	Ambient string `yaml:"ambient"`
	Note    string `yaml:"note"`
}

var (
	serviceName = regexp.MustCompile(`^[a-z][a-z0-9-]*$`)
	settingName = regexp.MustCompile(`^LONGHAUL_[A-Z0-9_]+$`)
	memorySize  = regexp.MustCompile(`^[1-9][0-9]*[KMG]$`)
	credential  = regexp.MustCompile(`^[a-z0-9][a-z0-9.-]*$`)
	placeholder = regexp.MustCompile(`\{\{\s*([A-Za-z0-9_]+)\s*\}\}`)
)

// Load reads and checks a description: unknown fields, dangling references and unset required
// fields are errors naming the file, the line and the field.
func Load(path string) (*Description, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

// Parse is Load of data read from path (named in errors).
func Parse(path string, data []byte) (*Description, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var d Description
	if err := dec.Decode(&d); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := d.check(); err != nil {
		var fe *fieldError
		if errors.As(err, &fe) {
			return nil, fmt.Errorf("%s:%d: %s: %s", path, fe.line(&root), fe.field(), fe.msg)
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &d, nil
}

// fieldError is a check's finding at a path of the document ("services[3].memory.max").
type fieldError struct {
	path []any // keys (string) and indexes (int)
	msg  string
}

func (e *fieldError) Error() string { return e.field() + ": " + e.msg }

// field is the path as one would write it: services[3].memory.max.
func (e *fieldError) field() string {
	var b strings.Builder
	for _, step := range e.path {
		switch s := step.(type) {
		case int:
			fmt.Fprintf(&b, "[%d]", s)
		default:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			fmt.Fprint(&b, s)
		}
	}
	return b.String()
}

func at(msg string, path ...any) error { return &fieldError{path: path, msg: msg} }

// line is where the finding's node starts in the document, or its nearest ancestor that exists.
func (e *fieldError) line(root *yaml.Node) int {
	n := root
	if n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	line := n.Line
	for _, step := range e.path {
		var next *yaml.Node
		switch s := step.(type) {
		case string:
			for i := 0; n.Kind == yaml.MappingNode && i+1 < len(n.Content); i += 2 {
				if n.Content[i].Value == s {
					next = n.Content[i+1]
				}
			}
		case int:
			if n.Kind == yaml.SequenceNode && s < len(n.Content) {
				next = n.Content[s]
			}
		}
		if next == nil {
			return line
		}
		if next.Kind == yaml.AliasNode {
			next = next.Alias
		}
		n, line = next, next.Line
	}
	return line
}

func (d *Description) check() error {
	lists := map[string]bool{}
	for i, l := range d.Lists {
		if field, msg := checkList(l); msg != "" {
			return at(msg, "lists", i, field)
		}
		if lists[l.Name] {
			return at(l.Name+" is described twice", "lists", i, "name")
		}
		lists[l.Name] = true
	}
	values := map[string]bool{}
	for i, s := range d.Settings {
		switch {
		case s.Section != "" && (s.Name != "" || s.Default != "" || s.Note != "" || len(s.RenderedIn) > 0 || len(s.ListedIn) > 0):
			return at("a section starts a group of settings and has no name, default, note, rendered_in or listed_in", "settings", i)
		case s.Section != "":
		case !settingName.MatchString(s.Name):
			return at(fmt.Sprintf("%q is not a LONGHAUL_ setting's name", s.Name), "settings", i, "name")
		case values[s.Name]:
			return at(s.Name+" is set twice", "settings", i, "name")
		case strings.ContainsAny(s.Default, "\"$`\\\n"):
			return at("a default is a literal: no quote, $, backquote, backslash or line break", "settings", i, "default")
		default:
			values[s.Name] = true
		}
		for j, p := range s.RenderedIn {
			if field, msg := checkPlacement(p); msg != "" {
				return at(msg, "settings", i, "rendered_in", j, field)
			}
		}
		for j, name := range s.ListedIn {
			if !lists[name] {
				return at(fmt.Sprintf("%q is no list of this description", name), "settings", i, "listed_in", j)
			}
		}
	}
	names := map[string]bool{}
	for i, s := range d.Services {
		if !serviceName.MatchString(s.Name) {
			return at(fmt.Sprintf("%q is not a service name (lower case, digits, -)", s.Name), "services", i, "name")
		}
		if names[s.Name] {
			return at(s.Name+" is described twice", "services", i, "name")
		}
		names[s.Name] = true
	}
	if d.Target.Description == "" {
		return at("the target has no description", "target")
	}
	private := map[string]bool{}
	for _, s := range d.Services {
		private[s.Name] = s.PrivateNetwork != nil
	}
	for i, s := range d.Services {
		if err := s.check(i, names, private, values); err != nil {
			return err
		}
	}
	return nil
}

func (s *Service) check(i int, services, private, settings map[string]bool) error {
	for _, t := range s.texts() {
		for _, m := range placeholder.FindAllStringSubmatch(t.text, -1) {
			if !settings[m[1]] {
				return at(fmt.Sprintf("{{%s}} names no setting of this description", m[1]), append([]any{"services", i}, t.path...)...)
			}
		}
	}
	for _, r := range []text{{[]any{"description"}, s.Description}, {[]any{"user"}, s.User}, {[]any{"memory", "max"}, s.Memory.Max}} {
		if r.text == "" {
			return at("is required", append([]any{"services", i}, r.path...)...)
		}
	}
	if len(s.Command) == 0 {
		return at("is required", "services", i, "command")
	}
	if !memorySize.MatchString(s.Memory.Max) {
		return at(fmt.Sprintf("%q is not a size (a number and K, M or G)", s.Memory.Max), "services", i, "memory", "max")
	}
	for field, refs := range map[string][]string{"wants": s.Wants, "after": s.After} {
		for j, ref := range refs {
			if !services[ref] || ref == s.Name {
				return at(fmt.Sprintf("%q is not another service of this description", ref), "services", i, field, j)
			}
		}
	}
	for j, c := range s.Credentials {
		if !credential.MatchString(c.Name) {
			return at(fmt.Sprintf("%q is not a file name of /etc/longhaul/secrets", c.Name), "services", i, "credentials", j, "name")
		}
	}
	if s.OpenFiles != nil && s.OpenFiles.Limit == "" {
		return at("is required", "services", i, "open_files", "limit")
	}
	if s.State != nil && s.State.Dir == "" {
		return at("is required", "services", i, "state", "dir")
	}
	if s.Socket != nil && s.Socket.Listen == "" {
		return at("is required", "services", i, "socket", "listen")
	}
	if s.JoinsNetworkOf != "" && !private[s.JoinsNetworkOf] {
		return at(fmt.Sprintf("%q is not another service of this description with a private_network", s.JoinsNetworkOf), "services", i, "joins_network_of")
	}
	return nil
}

// text is a field of a service where {{LONGHAUL_NAME}} stands for that setting's value.
type text struct {
	path []any
	text string
}

func (s *Service) texts() []text {
	out := []text{{[]any{"about"}, s.About}, {[]any{"stop_note"}, s.StopNote}, {[]any{"memory", "note"}, s.Memory.Note}}
	for j, c := range s.Command {
		out = append(out, text{[]any{"command", j}, c})
	}
	for j, e := range s.Environment {
		out = append(out, text{[]any{"environment", j, "set"}, e.Set}, text{[]any{"environment", j, "note"}, e.Note})
	}
	for j, c := range s.Credentials {
		out = append(out, text{[]any{"credentials", j, "note"}, c.Note})
	}
	if s.State != nil {
		out = append(out, text{[]any{"state", "note"}, s.State.Note})
	}
	if s.OpenFiles != nil {
		out = append(out, text{[]any{"open_files", "note"}, s.OpenFiles.Note})
	}
	if s.Capabilities != nil {
		out = append(out, text{[]any{"capabilities", "note"}, s.Capabilities.Note})
	}
	if s.PrivateNetwork != nil {
		out = append(out, text{[]any{"private_network", "note"}, s.PrivateNetwork.Note})
	}
	if s.Socket != nil {
		out = append(out, text{[]any{"socket", "listen"}, s.Socket.Listen}, text{[]any{"socket", "note"}, s.Socket.Note})
	}
	return out
}
