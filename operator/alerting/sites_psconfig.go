package alerting

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"longhaul/perfsonar/psconfig"
)

// MetaSite is the `_meta` key with which a pSConfig address may name its site for Longhaul.
// Without it, the address's `display-name` (what perfSONAR's dashboards show: "CNRS/IN2P3-CC"
// and "RAL-LCG2" in the LHCOPN mesh, WLCG's site names) is the site, as a site name: each run of
// characters other than letters, digits, '.', '_' and '-' becomes one '-', and so does a run of
// dashes ("CNRS-IN2P3-CC", "SCinet-DNOC-Booth-571").
const MetaSite = "longhaul-site"

var notSiteChars = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

var dashes = regexp.MustCompile(`-{2,}`)

// siteOfMeta is the site an address's _meta names, and a problem when longhaul-site is set but
// is not a site name ("" and no problem when it names none).
func siteOfMeta(m psconfig.Meta) (string, string) {
	if v, ok := m[MetaSite]; ok {
		s, _ := v.(string)
		if !siteName.MatchString(s) {
			return "", fmt.Sprintf("_meta.%s %v is not a site name (letters, digits, '.', '_', '-')", MetaSite, v)
		}
		return s, ""
	}
	d, _ := m["display-name"].(string)
	s := strings.Trim(dashes.ReplaceAllString(notSiteChars.ReplaceAllString(d, "-"), "-"), "-")
	if len(s) > 63 {
		s = strings.TrimRight(s[:63], "-")
	}
	return s, ""
}

// WithPSConfig is s with the site of each address of a pSConfig template whose `_meta` names
// one (MetaSite, else display-name). The site is given to the address's `address` (the host
// name the probes use, so the links' src and dst) and to its name in the template; an entry s
// has already (the sites file) wins. It returns the new table, how many hosts it named, and a
// problem per address whose longhaul-site is not a site name (that address is left out).
func (s Sites) WithPSConfig(t *psconfig.Template) (Sites, int, []string) {
	out := Sites{exact: map[string]string{}, suffixes: s.suffixes}
	for h, site := range s.exact {
		out.exact[h] = site
	}
	names := make([]string, 0, len(t.Addresses))
	for n := range t.Addresses {
		names = append(names, n)
	}
	sort.Strings(names)
	added := 0
	var problems []string
	for _, n := range names {
		a := t.Addresses[n]
		if a == nil {
			continue
		}
		site, problem := siteOfMeta(a.Meta)
		if problem != "" {
			problems = append(problems, fmt.Sprintf("addresses.%s: %s", n, problem))
			continue
		}
		if site == "" {
			continue
		}
		for _, h := range []string{a.Address, n} {
			h = strings.ToLower(strings.TrimSpace(h))
			if _, known := out.exact[h]; h != "" && !known {
				out.exact[h] = site
				added++
			}
		}
	}
	return out, added, problems
}

// LoadPSConfigSites reads a pSConfig template (a path, a file:// or an https:// URL, its includes
// followed as the agent follows them) and gives s the sites its addresses' `_meta` name.
func LoadPSConfigSites(ctx context.Context, s Sites, loc string) (Sites, int, []string, error) {
	t, _, err := psconfig.NewSource(loc, psconfig.Options{UserAgent: "longhaul-alert-bridge"}).Refresh(ctx)
	if err != nil {
		return s, 0, nil, fmt.Errorf("sites from pSConfig: %w", err)
	}
	out, n, problems := s.WithPSConfig(t)
	return out, n, problems, nil
}
