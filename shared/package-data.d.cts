export function packageDataFile(pkg: string, relative: string): string;
export function readPackageJson<T = unknown>(pkg: string, relative: string): T;
