import fs from "node:fs";
import path from "node:path";
import { crewClasses } from "./read-crew-py";
import { LoadError } from "./read-files";

// Where CrewAI's YAML layout keeps a crew: the files each @CrewBase class names
// (`agents_config = "config/agents_x.yaml"`, its own or a base class's; CrewAI's default is
// config/agents.yaml and config/tasks.yaml), relative to the module that defines the class — at
// the folder's top, under src/<package>/, or a flow project's src/<package>/crews/<crew>/. Several
// classes serve one crew each. Without a class, config/ beside crew.py is the layout.

export type ClassicProject = {
  agentsFile: string;
  tasksFile: string;
  crewPy: string;
  /** The @CrewBase class the crew is, when its module has one. */
  className?: string;
};

const subdirs = (dir: string) => {
  try {
    return fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !e.name.startsWith(".") && !e.name.startsWith("__"))
      .map((e) => path.join(dir, e.name))
      .sort();
  } catch {
    return [];
  }
};

const pythonFiles = (dir: string) => {
  try {
    return fs
      .readdirSync(dir)
      .filter((f) => f.endsWith(".py") && !f.startsWith("__") && !f.startsWith("test_"))
      .sort()
      .map((f) => path.join(dir, f));
  } catch {
    return [];
  }
};

/** The folders a crew's module may sit in: the top, src/<package>/, src/<package>/crews/<crew>/. */
function moduleDirs(folder: string): string[] {
  const packages = subdirs(path.join(folder, "src"));
  return [folder, ...packages, ...packages.flatMap((p) => subdirs(path.join(p, "crews")))];
}

/** Every crew of the folder in CrewAI's YAML layout, one per @CrewBase class. */
export function findClassicProjects(folder: string): ClassicProject[] {
  const found: ClassicProject[] = [];
  for (const dir of moduleDirs(folder))
    for (const file of pythonFiles(dir)) {
      const code = fs.readFileSync(file, "utf8");
      if (!code.includes("CrewBase")) continue;
      for (const c of crewClasses(code)) {
        const agentsFile = path.resolve(dir, c.agents_config ?? "config/agents.yaml");
        const tasksFile = path.resolve(dir, c.tasks_config ?? "config/tasks.yaml");
        if (fs.existsSync(agentsFile) && fs.existsSync(tasksFile))
          found.push({ agentsFile, tasksFile, crewPy: file, className: c.name });
      }
    }
  return found.length ? found : configDirProject(folder);
}

/** No @CrewBase class reads them: config/agents.yaml and config/tasks.yaml, and crew.py beside. */
function configDirProject(folder: string): ClassicProject[] {
  const at = (dir: string): ClassicProject[] => {
    const agentsFile = path.join(dir, "config", "agents.yaml");
    const tasksFile = path.join(dir, "config", "tasks.yaml");
    return fs.existsSync(agentsFile) && fs.existsSync(tasksFile)
      ? [{ agentsFile, tasksFile, crewPy: crewModule(dir) }]
      : [];
  };
  const top = at(folder);
  if (top.length) return top;
  const src = path.join(folder, "src");
  const found = subdirs(src).flatMap(at);
  if (found.length > 1)
    throw new LoadError(
      src,
      "",
      `more than one package has config/agents.yaml and config/tasks.yaml (${found.map((f) => path.basename(path.dirname(path.dirname(f.agentsFile)))).join(", ")}): keep one crew per folder`,
    );
  return found;
}

/**
 * The Python file that sets up the crew: crew.py, or else the one file beside config/ that reads
 * its YAML (flows name theirs `<name>_crew.py`; scripts name theirs as they like).
 */
function crewModule(dir: string): string {
  const crewPy = path.join(dir, "crew.py");
  if (fs.existsSync(crewPy)) return crewPy;
  const candidates = pythonFiles(dir).filter((f) =>
    /@CrewBase|\b(agents|tasks)_config\b/.test(fs.readFileSync(f, "utf8")),
  );
  const [only, ...others] = candidates;
  return only !== undefined && !others.length ? only : crewPy;
}
