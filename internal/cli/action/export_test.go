package action

import "github.com/sethvargo/go-githubactions"

// ReadInputs reads the inputs from getenv as the action does, for a test
// that records which INPUT_* variables the entry asks for.
func ReadInputs(getenv func(string) string) error {
	_, err := readInputs(githubactions.New(githubactions.WithGetenv(getenv)))
	return err
}
