package spritzertest

// Where the helper finds the command without Command, SPRITZER_CMD or SPRITZER_BIN: npm install of the packed
// tarball puts it under node_modules/spritzer-emulator, and a checkout is the directory whose package.json names
// spritzer-emulator; a package.json named spritzer (npm's unrelated package of that name) is not one.

import (
	"os"
	"path/filepath"
	"testing"
)

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestScriptInFindsTheInstalledPackageAndACheckout(t *testing.T) {
	root := t.TempDir()
	installed := filepath.Join(root, "project", "node_modules", "spritzer-emulator", "bin", "spritzer.mjs")
	write(t, installed, "")
	if got := scriptIn(filepath.Join(root, "project")); got != installed {
		t.Fatalf("installed: got %q, want %q", got, installed)
	}
	checkout := filepath.Join(root, "checkout")
	write(t, filepath.Join(checkout, "bin", "spritzer.mjs"), "")
	write(t, filepath.Join(checkout, "package.json"), `{"name": "spritzer-emulator"}`)
	if got := scriptIn(checkout); got != filepath.Join(checkout, "bin", "spritzer.mjs") {
		t.Fatalf("checkout: got %q", got)
	}
	write(t, filepath.Join(checkout, "package.json"), `{"name": "spritzer"}`)
	if got := scriptIn(checkout); got != "" {
		t.Fatalf("a package.json named spritzer is not a checkout: got %q", got)
	}
}
