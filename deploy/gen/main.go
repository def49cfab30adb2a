// Command gen renders every deployment file that deploy/services.yaml describes: the systemd units
// of deploy/systemd (longhaul-<name>.service, longhaul.target), the native stack's shared defaults
// (scripts/stack/services.env), and each setting's value in the lines of docker-compose.yml and the
// Kubernetes manifests that its rendered_in names. With -check it writes nothing and fails naming each file
// that differs from a fresh rendering (`make check` runs it).
//
//	go run ./deploy/gen             rewrite the rendered files
//	go run ./deploy/gen -check      exit 1 if any is stale
package main

import (
	"os"
	"path/filepath"

	"longhaul/internal/rendered"
)

// descriptionFile is the one description, relative to the repository's root.
const descriptionFile = "deploy/services.yaml"

func main() {
	rendered.Main("go run ./deploy/gen", render)
}

// render loads the description under root and renders every file it describes.
func render(root string) (map[string][]byte, error) {
	d, err := Load(filepath.Join(root, descriptionFile))
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{}
	for name, text := range d.Render() {
		files[name] = []byte(text)
	}
	placed, err := d.RenderPlacements(func(name string) ([]byte, error) {
		return os.ReadFile(filepath.Join(root, name))
	})
	if err != nil {
		return nil, err
	}
	for name, text := range placed {
		files[name] = []byte(text)
	}
	return files, nil
}

// Render is every file the description renders, by path from the repository's root.
func (d *Description) Render() map[string]string {
	files := map[string]string{
		filepath.Join(unitsDir, targetName): d.TargetUnit(),
		settingsFile:                        d.SettingsEnv(),
	}
	for i := range d.Services {
		s := &d.Services[i]
		files[filepath.Join(unitsDir, unitName(s.Name))] = d.Unit(s)
		if s.Socket != nil {
			files[filepath.Join(unitsDir, socketName(s.Name))] = d.SocketUnit(s)
		}
	}
	return files
}
