/** How a project is named wherever it is picked: "Project (code)", the code when it has one. */
export const projectLabel = (p: { name: string; code: string | null }) => (p.code ? `${p.name} (${p.code})` : p.name);
