package markdown

import "github.com/drp2/drp2-fixtures/model"

// CommentBody is the sticky comment: the matrix when the run has
// implementations, else the run's own report.
func CommentBody(run *model.Run, md Options) string {
	if len(run.Implementations) > 0 {
		return ImplementationsComment(run, md)
	}
	return Comment(run, md)
}
