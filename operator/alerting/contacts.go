package alerting

import (
	_ "embed"
	"errors"
	"fmt"
	"net"
	"net/mail"
	"os"
	"sort"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// SampleContacts is the documented contacts file (contacts.sample.yaml): what each field means
// and its default, tested to load.
//
//go:embed contacts.sample.yaml
var SampleContacts string

// Team is one team of the contacts file: who is told of the incidents at what it owns.
type Team struct {
	Name           string
	Email          string // "" for none
	WebhookURLFile string // a file holding the webhook's URL, read by Alertmanager; "" for none
	Sites, Hosts   []string
	Hops           []string // router addresses
	ASNs           []int64
}

// Contacts maps locations to the teams that own them.
type Contacts struct {
	Teams []Team
	owner map[string]string // "host:h", "site:s", "hop:a", "asn:n" → team name
}

// TeamOf is the team owning the location: a site or host incident's host (else its site), a
// hop's address (else its AS). "" when nobody declared it.
func (c Contacts) TeamOf(l Location, sites Sites) string {
	switch l.Type {
	case "hop":
		if t := c.owner["hop:"+l.Name]; t != "" {
			return t
		}
		if l.ASN != nil {
			return c.owner["asn:"+strconv.FormatInt(*l.ASN, 10)]
		}
		return ""
	default: // site, host: a host name
		if t := c.owner["host:"+strings.ToLower(l.Name)]; t != "" {
			return t
		}
		return c.owner["site:"+sites.Of(l.Name)]
	}
}

// LoadContacts reads a contacts file (contacts.sample.yaml). An empty path is no teams; so is a
// missing file when optional (the default path, where a host without teams has none). Every bad
// entry is reported at once, each as FILE:LINE: field: reason.
func LoadContacts(path string, optional bool) (Contacts, error) {
	c := Contacts{owner: map[string]string{}}
	if path == "" {
		return c, nil
	}
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) && optional {
		return c, nil
	}
	if err != nil {
		return c, fmt.Errorf("contacts file: %w", err)
	}
	return parseContacts(path, b)
}

// claim is a location a team says it owns ("host:h", …) and where it says so.
type claim struct {
	key string
	at  *yaml.Node
}

func parseContacts(path string, b []byte) (Contacts, error) {
	c := Contacts{owner: map[string]string{}}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return c, fmt.Errorf("%s: %w", path, err)
	}
	var errs []lineError
	bad := func(n *yaml.Node, field, format string, args ...any) {
		errs = append(errs, lineError{n.Line, fmt.Errorf("%s:%d: %s: %s", path, n.Line, field, fmt.Sprintf(format, args...))})
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return c, fmt.Errorf("%s: want a mapping with `teams:`", path)
	}
	var teams *yaml.Node
	root := doc.Content[0]
	for i := 0; i+1 < len(root.Content); i += 2 {
		if k := root.Content[i]; k.Value == "teams" {
			teams = root.Content[i+1]
		} else {
			bad(k, k.Value, "unknown field (want teams)")
		}
	}
	if teams == nil || teams.Kind != yaml.SequenceNode {
		if teams == nil {
			teams = root
		}
		bad(teams, "teams", "want a list of teams")
		return c, joinByLine(errs)
	}
	names := map[string]bool{}
	for i, tn := range teams.Content {
		at := fmt.Sprintf("teams[%d]", i)
		if tn.Kind != yaml.MappingNode {
			bad(tn, at, "want a mapping (name, email, webhook_url_file, sites, hosts, hops, asns)")
			continue
		}
		var t Team
		var owns []claim // this team's, in file order
		for j := 0; j+1 < len(tn.Content); j += 2 {
			k, v := tn.Content[j], tn.Content[j+1]
			field := at + "." + k.Value
			scalar := func() string {
				if v.Kind != yaml.ScalarNode || v.Value == "" {
					bad(v, field, "want a value")
					return ""
				}
				return v.Value
			}
			list := func(kind string, check func(string) (string, error)) []string {
				if v.Kind != yaml.SequenceNode {
					bad(v, field, "want a list")
					return nil
				}
				var out []string
				for n, item := range v.Content {
					itemField := fmt.Sprintf("%s[%d]", field, n)
					if item.Kind != yaml.ScalarNode {
						bad(item, itemField, "want a value")
						continue
					}
					key, err := check(item.Value)
					if err != nil {
						bad(item, itemField, "%v", err)
						continue
					}
					owns = append(owns, claim{kind + ":" + key, item})
					out = append(out, key)
				}
				return out
			}
			switch k.Value {
			case "name":
				t.Name = scalar()
				if t.Name != "" && !siteName.MatchString(t.Name) {
					bad(v, field, "%q is not a team name (letters, digits, '.', '_', '-')", t.Name)
				} else if names[t.Name] {
					bad(v, field, "team %q is declared twice", t.Name)
				}
				names[t.Name] = true
			case "email":
				if t.Email = scalar(); t.Email != "" {
					if a, err := mail.ParseAddress(t.Email); err != nil || a.Address != t.Email {
						bad(v, field, "%q is not an email address", t.Email)
					}
				}
			case "webhook_url_file":
				if t.WebhookURLFile = scalar(); strings.ContainsAny(t.WebhookURLFile, " \t\n'\"") {
					bad(v, field, "%q is not a file path (the URL goes in the file, never here)", t.WebhookURLFile)
				}
			case "sites":
				t.Sites = list("site", func(s string) (string, error) {
					if !siteName.MatchString(s) {
						return "", fmt.Errorf("%q is not a site name", s)
					}
					return s, nil
				})
			case "hosts":
				t.Hosts = list("host", func(s string) (string, error) {
					h := strings.ToLower(strings.TrimSpace(s))
					if h == "" || strings.ContainsAny(h, " *|/") {
						return "", fmt.Errorf("%q is not a host name", s)
					}
					return h, nil
				})
			case "hops":
				t.Hops = list("hop", func(s string) (string, error) {
					ip := net.ParseIP(strings.TrimSpace(s))
					if ip == nil {
						return "", fmt.Errorf("%q is not a router address", s)
					}
					return ip.String(), nil
				})
			case "asns":
				for _, a := range list("asn", func(s string) (string, error) {
					n, err := strconv.ParseInt(strings.TrimPrefix(strings.ToUpper(strings.TrimSpace(s)), "AS"), 10, 64)
					if err != nil || n <= 0 || n > 4294967295 {
						return "", fmt.Errorf("%q is not an AS number", s)
					}
					return strconv.FormatInt(n, 10), nil
				}) {
					n, _ := strconv.ParseInt(a, 10, 64)
					t.ASNs = append(t.ASNs, n)
				}
			default:
				bad(k, field, "unknown field (want name, email, webhook_url_file, sites, hosts, hops, asns)")
			}
		}
		if t.Name == "" {
			bad(tn, at+".name", "required")
			continue
		}
		if t.Email == "" && t.WebhookURLFile == "" {
			bad(tn, at, "neither email nor webhook_url_file: nobody to tell")
		}
		for _, o := range owns {
			if other, ok := c.owner[o.key]; ok && other != t.Name {
				bad(o.at, at, "%s is already team %s's", strings.Replace(o.key, ":", " ", 1), other)
				continue
			}
			c.owner[o.key] = t.Name
		}
		c.Teams = append(c.Teams, t)
	}
	return c, joinByLine(errs)
}

type lineError struct {
	line int
	err  error
}

// joinByLine is every error in the order of the file's lines (nil for none).
func joinByLine(errs []lineError) error {
	sort.SliceStable(errs, func(i, j int) bool { return errs[i].line < errs[j].line })
	out := make([]error, len(errs))
	for i, e := range errs {
		out[i] = e.err
	}
	return errors.Join(out...)
}
