// Texts shared by the auth dialog and the account pages (the catalogue of docs/product.md#messages), in a
// module of their own so a page does not pull the dialog into its chunk.
export const PASSWORDS_DIFFER = 'Passwords do not match';
