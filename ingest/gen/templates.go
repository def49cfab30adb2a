package main

import (
	"embed"
	"text/template"
)

// The generated files' templates, one file each beside the generator (templates/NAME.tmpl).
//
//go:embed templates/*.tmpl
var templateFiles embed.FS

// parseTemplate is templates/name with header before it (the Java files' generated-file notice).
func parseTemplate(name, header string) *template.Template {
	body, err := templateFiles.ReadFile("templates/" + name)
	if err != nil {
		panic(err)
	}
	return template.Must(template.New(name).Funcs(funcs).Parse(header + string(body)))
}
