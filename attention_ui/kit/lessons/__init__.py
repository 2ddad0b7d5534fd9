"""Lessons: an ordered path of page states, each with a prompt and an optional question
(`format`: the file and its checks, pure; `builtin`: the app's own lessons; `bar`: the lesson bar
every page draws; `authoring`: writing one). The page list is handed in through
`kit.share.address.register_schemas`: this package names no page."""
