"""The import graph has no circle through any module. The package-level contracts (layers,
no circle between sibling packages, the pure core) are import-linter's, in pyproject.toml,
run by ``make lint``; this test looks at every module, a package's own ``__init__``
included, which the sibling contract does not see when a module imports its parent."""

from __future__ import annotations

import grimp


def test_no_module_imports_one_that_imports_it_back() -> None:
    graph = grimp.build_graph("forties", cache_dir=None)
    circles = []
    for module in sorted(graph.modules):
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            back = graph.find_shortest_chain(importer=imported, imported=module)
            if back is not None:
                circles.append(" -> ".join((module, *back)))
    assert not circles, "import circles:\n" + "\n".join(circles)
