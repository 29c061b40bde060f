import ts from 'typescript';

// The declaration files under node_modules (TypeScript's libs, @citizenfx's natives), parsed once per worker for every
// program the tests build: parsing them is most of a small program's time. A program never changes them.
const parsedFiles = new Map<string, ts.SourceFile>();

/** A compiler host for `options` that takes node_modules' declaration files from the worker's cache. */
export function cachingCompilerHost(options: ts.CompilerOptions): ts.CompilerHost {
  const host = ts.createCompilerHost(options);
  const getReal = host.getSourceFile.bind(host);
  host.getSourceFile = (path, language, onError) => {
    const key = `${JSON.stringify(language)} ${path}`;
    const cached = parsedFiles.get(key);
    if (cached) return cached;
    const parsed = getReal(path, language, onError);
    if (parsed && path.includes('/node_modules/')) parsedFiles.set(key, parsed);
    return parsed;
  };
  return host;
}
