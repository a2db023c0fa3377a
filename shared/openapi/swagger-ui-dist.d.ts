/** swagger-ui-dist ships no types; this is the one file of it that runs in Node. */
declare module 'swagger-ui-dist/absolute-path.js' {
  /** The directory that holds the package's files (on Lambda: the bundle's own directory). */
  const swaggerUiDirectory: () => string;
  export default swaggerUiDirectory;
}
