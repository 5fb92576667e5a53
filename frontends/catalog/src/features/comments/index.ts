/** The comments under a book: approved ones, the viewer's pending ones, moderation for the owner. */
export { CommentsSection, type CommentsSectionProps } from './CommentsSection';
