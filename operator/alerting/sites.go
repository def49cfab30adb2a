package alerting

import (
	"fmt"
	"os"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"
)

// Sites names the site of each host: NREN operators route and group alerts by institution, not
// by perfSONAR host. A host not in the table is its own site.
type Sites struct {
	exact    map[string]string // host → site
	suffixes []suffixSite      // ".domain" → site, longest first
}

type suffixSite struct{ suffix, site string }

// Of is the site of host ("*", the wildcard of site-wide and pipeline events, stays "*").
func (s Sites) Of(host string) string {
	h := strings.ToLower(host)
	if site, ok := s.exact[h]; ok {
		return site
	}
	for _, x := range s.suffixes {
		if strings.HasSuffix(h, x.suffix) {
			return x.site
		}
	}
	return host
}

var siteName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$`)

// LoadSites reads a sites file: one mapping `sites:` of a host name, or a domain starting with
// a dot, to a site name:
//
//	sites:
//	  perfsonar.ihep.ac.cn: IHEP
//	  .in2p3.fr: IN2P3
//
// An empty path is an empty table. A bad entry is an error naming the file, line and entry.
func LoadSites(path string) (Sites, error) {
	s := Sites{exact: map[string]string{}}
	if path == "" {
		return s, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return s, fmt.Errorf("sites file: %w", err)
	}
	var doc struct {
		Sites yaml.Node `yaml:"sites"`
	}
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return s, fmt.Errorf("%s: %w", path, err)
	}
	m := doc.Sites
	if m.Kind == 0 {
		return s, fmt.Errorf("%s: no `sites:` mapping", path)
	}
	if m.Kind != yaml.MappingNode {
		return s, fmt.Errorf("%s:%d: sites: want a mapping of host or .domain to site", path, m.Line)
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		host := strings.ToLower(strings.TrimSpace(k.Value))
		if host == "" || strings.ContainsAny(host, " *|") {
			return s, fmt.Errorf("%s:%d: sites: %q is not a host name or .domain", path, k.Line, k.Value)
		}
		if v.Kind != yaml.ScalarNode || !siteName.MatchString(v.Value) {
			return s, fmt.Errorf("%s:%d: sites.%s: %q is not a site name (letters, digits, '.', '_', '-')", path, v.Line, k.Value, v.Value)
		}
		if strings.HasPrefix(host, ".") {
			s.suffixes = append(s.suffixes, suffixSite{host, v.Value})
		} else {
			s.exact[host] = v.Value
		}
	}
	// the longest suffix wins: .cern.ch before .ch
	for i := 1; i < len(s.suffixes); i++ {
		for j := i; j > 0 && len(s.suffixes[j].suffix) > len(s.suffixes[j-1].suffix); j-- {
			s.suffixes[j], s.suffixes[j-1] = s.suffixes[j-1], s.suffixes[j]
		}
	}
	return s, nil
}
