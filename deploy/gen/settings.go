package main

import (
	"fmt"
	"strings"
)

// settingsFile is where the native stack's shared defaults are rendered; defaults.env sources it.
const settingsFile = "scripts/stack/services.env"

// expand replaces each {{LONGHAUL_NAME}} of text by that setting's default (check has made sure
// every one names a setting).
func (d *Description) expand(text string) string {
	return placeholder.ReplaceAllStringFunc(text, func(m string) string {
		name := placeholder.FindStringSubmatch(m)[1]
		for _, s := range d.Settings {
			if s.Name == name {
				return s.Default
			}
		}
		return m
	})
}

// SettingsEnv renders the settings as scripts/stack/services.env: each a default the environment
// overrides, under its note.
func (d *Description) SettingsEnv() string {
	var b strings.Builder
	b.WriteString("# The native stack's defaults that every deployment shares (ports, memory, Java).\n")
	b.WriteString("# " + generated + "\n")
	b.WriteString("# Sourced by scripts/stack/defaults.env; override any of them from the environment.\n")
	b.WriteString("# shellcheck shell=bash\n")
	for _, s := range d.Settings {
		if s.Section != "" {
			title := "# --- " + s.Section + " "
			fmt.Fprintf(&b, "\n%s%s\n", title, strings.Repeat("-", max(3, 99-len(title))))
			continue
		}
		if s.Note != "" {
			for _, line := range strings.Split(s.Note, "\n") {
				b.WriteString(strings.TrimRight("# "+line, " ") + "\n")
			}
		}
		fmt.Fprintf(&b, ": \"${%s:=%s}\"\n", s.Name, s.Default)
	}
	return b.String()
}
