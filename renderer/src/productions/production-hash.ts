/**
 * The address of a production's page (issue #42: `#/productions/<id>`; the search box links there
 * too). A module of its own: the links back to a production are on the first screen (the Recorder
 * panel), the productions API and its contracts are not.
 */
export const productionHash = (id: string) => `#/productions/${encodeURIComponent(id)}`;
